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


def reference(diagram: Diagram) -> str:
    return json.dumps(diagram.to_json(), sort_keys=True, ensure_ascii=True)


def test_the_prefix_does_not_change():
    assert default_id_prefix(volley.parse(SIGN_IN)) == "v86c12cb68c"


def test_a_diagram_and_its_source_share_the_prefix():
    assert default_id_prefix(volley.parse(SIGN_IN)) == default_id_prefix(
        volley.parse(SIGN_IN + "\n")
    )
    assert volley.render(SIGN_IN) == volley.render(volley.parse(SIGN_IN))


def test_another_diagram_gets_another_prefix():
    assert default_id_prefix(volley.parse(SIGN_IN)) != default_id_prefix(
        volley.parse(SIGN_IN.replace("ada", "grace"))
    )
