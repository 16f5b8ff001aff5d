"""The default id prefix hashes the diagram's sorted JSON, so ids never clash between diagrams."""

from __future__ import annotations

import volley
from volley.api import default_id_prefix

SIGN_IN = """\
title: Sign in
Browser -> API: POST /login
in: Request
  user: ada
  password: <redacted>
API --> Browser: 200 OK
"""


def test_the_prefix_does_not_change():
    # The model's JSON gained "activate" on messages and "labels" (display names), which
    # moved every default prefix once; it holds from there.
    assert default_id_prefix(volley.parse(SIGN_IN)) == "v537fad26bf"


def test_a_diagram_and_its_source_share_the_prefix():
    assert default_id_prefix(volley.parse(SIGN_IN)) == default_id_prefix(
        volley.parse(SIGN_IN + "\n")
    )
    assert volley.render(SIGN_IN) == volley.render(volley.parse(SIGN_IN))


def test_another_diagram_gets_another_prefix():
    assert default_id_prefix(volley.parse(SIGN_IN)) != default_id_prefix(
        volley.parse(SIGN_IN.replace("ada", "grace"))
    )
