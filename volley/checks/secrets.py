"""Values in pasted traffic that look like live secrets: finding them, and masking them.

People paste real requests into diagrams that end up in READMEs and shared links. Two kinds of
knowledge, and a third for payment cards, find the secrets in them:

- Token shapes: values that say what they are wherever they appear (`AKIA…`, `sk_live_…`,
  `glpat-…`, a JWT, a Slack webhook). The well-known ones come from the detectors of
  `detect-secrets` (Yelp's maintained scanner; its plugins' `analyze_string`), the rest from a
  few shapes of volley's own (`whsec_`, `ya29.`, `GOCSPX-`, `npm_`, `hf_`, `sk-…`, a bare AWS
  secret access key, a private key block with or without its END line).
- Where a credential sits in traffic, which no scanner of source code knows: HTTP headers
  (`Authorization`, `Cookie`, `Stripe-Signature`, `X-Hub-Signature-256` …), JSON keys and
  HAR's `{"name": …, "value": …}` pairs, XML elements, `key: value` and `.env` lines, query
  and form parameters (multipart parts too, and what a form or URL encodes once more),
  connection strings (`AccountKey=`, `sig=`), URLs
  with `user:pass@`, `.npmrc`'s `_authToken`, and command lines (`curl -H "Authorization: …"`,
  `curl -u u:p`).
- Payment cards: a card number (a network's prefix and length, Luhn's check digit), grouped as
  printed or after a name that says card, and a card's security code; the test cards payment
  providers publish are not secrets.

Masking replaces the value alone with `<redacted>` and keeps everything around it as it was
written, so a JSON body stays JSON, a header stays a header, and the tables and raw views built
from the masked body show the mask. Placeholders (`<token>`, `xxx`, `$TOKEN`, `${TOKEN}`,
`{{token}}`, `YOUR_API_KEY`) and documented example keys (AWS's `…EXAMPLE`) are not secrets, so
documentation stays quiet and redacting twice changes nothing.

Labels, notes and participant names are prose: there a `key: value` (or a cookie) counts only
when the value is one credential-like word, so `password: at least 12 characters` stays advice,
and a value ends at the label's line break.

Every pattern of volley's own is linear in the length of the text (no nested quantifiers,
bounded names); each detector of `detect-secrets` runs only on a text holding a string its
pattern needs, so that a clean diagram never loads the package.
"""

from __future__ import annotations

import bisect
import importlib
import itertools
import json
import re
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from volley.model import Diagram, Text
from volley.text.inline import LINE_BREAK_TAG

MASK = "<redacted>"

# A pattern only some texts reach (a curl command, SQL, a card number, a token of a known
# shape: behind a finder's cheap test, or looked at once a value is found) is kept as its text
# and compiled where it is used, by `re.compile`, which keeps the patterns it compiled last:
# most diagrams reach none of these, and compiling them all on import took about 8 ms of
# every command's start.

# The names a payment card's security code goes by, which may never be stored (PCI DSS 3.2):
# its three or four digits are a secret even in a label's prose and as a JSON number.
# A card's or a phone's PIN: four to eight digits, enough for years (a one-time code, `otp`,
# is spent by the time anyone reads the diagram, and examples show them); under the same
# names, a microcontroller's pin (`"pin": 17`, `"D4"`) and a certificate's pin are no secrets
PIN_NAMES = frozenset({"pin", "pincode", "cardpin"})
_PIN_NUMBER = r"[0-9]{4,8}(?![0-9.eE])"
CARD_CODE_NAMES = frozenset(
    {"cvc", "cvv", "cvc2", "cvv2", "cardcvc", "cardcvv", "securitycode", "cardsecuritycode",
     "cardverificationvalue", "cardverificationcode"}
)  # fmt: skip
# Names (folded: lower case, without `-`, `_` and `.`) whose value is a secret whatever it is.
SECRET_NAMES = frozenset(
    {
        "authorization", "proxyauthorization", "cookie", "setcookie", "token", "accesstoken",
        "refreshtoken", "idtoken", "authtoken", "apikey", "password", "passwd", "passphrase",
        "pwd", "pass", "secret", "clientsecret", "privatekey", "secretkey", "secretaccesskey",
        "sessiontoken", "sessionid", "sessionkey", "credential", "credentials",
        "xamzsecuritytoken", "xamzsignature", "xamzcredential", "signature", "sig",
        "stripesignature", "xhubsignature", "xhubsignature256", "xslacksignature",
        "codeverifier", "accountkey", "sharedaccesskey", "sharedaccesssignature",
        "chromeproxy",  # Chrome's data saver: the proxy's session and signature
        "passcode", "jsessionid", "phpsessid", "aspsessionid",
        "xsessionid", "xsessiontoken",
        "secretkeybase", "samlresponse", "mnemonic",  # Rails's key, a SAML assertion, a seed
        "seedphrase", "recoveryphrase",
        # AWS Secrets Manager's secret as it stands, an SSM SecureString's type named as a
        # parameter's name, a kubeconfig's client key (a PEM in base64), a TLS secret's key
        "secretstring", "securestring", "clientkeydata", "tlskey",
        "devicecode",  # OAuth's device flow (RFC 8628): it is polled for the access token
    }
) | CARD_CODE_NAMES  # fmt: skip
_CARD_CODE = r"[0-9]{3,4}(?![0-9.eE])"
# Names that hold a secret only when the value looks like one: `"key": "k3yV4lue9Q"` is a key,
# `"key": "users"` (a sort key) and `"auth": "oauth2"` are not; OAuth's `?code=n8ce82b2e9ed8…`
# is an authorization code (it buys tokens until it is used), `"code": 404` is not.
# `bearer="YhlYj…"` (libp2p's peer ID auth) is the token itself, `"bearer": true` is not.
# A bare `session` or `sid` is not here: an id others see (MCP's session, Twilio's and
# Windows's ids); as a cookie it is masked as every cookie is.
WEAK_SECRET_NAMES = (
    frozenset(
        {"key", "auth", "code", "bearer", "authorizationcode", "appid", "pw", "authentication"}
    )
    | PIN_NAMES
)
# … and names that end so: `DB_PASS`, `SMTP_PASS` (`bypass` and `compass` hold words)
WEAK_SECRET_SUFFIXES = (
    "pass", "signingkey", "encryptionkey", "hmackey", "licensekey", "appkey",  # or `RS256`
)  # fmt: skip
# A name also counts when it ends in one of these: `github_token`, `db_password`, `x-api-key`,
# `AWS_SECRET_ACCESS_KEY`, `webhook_signature` …
SECRET_SUFFIXES = (
    "token", "secret", "password", "passwd", "apikey", "privatekey", "secretkey",
    "secretaccesskey", "signature",
    # Azure's `Ocp-Apim-Subscription-Key` and `x-functions-key`, a master key (an "access
    # key" is often the id beside a secret key: MinIO's, Terraform's `access_key`)
    "subscriptionkey", "functionskey", "masterkey", "authkey",
    "passcode", "pwd", "applicationkey",  # Datadog's DD-APPLICATION-KEY
    "honeycombteam",  # Honeycomb's API key header, `x-honeycomb-team`
)  # fmt: skip
# A header recorded under a prefix: OpenTelemetry's `http.request.header.authorization`, gRPC's
# `rpc.grpc.request.metadata.authorization`, `http.response.header.set-cookie`; the header's
# name stands apart (`requiresAuthorization` is a setting, not the header).
_PREFIXED_HEADER = re.compile(r"[._:\-](?:proxy-)?(?:authorization|(?:set-)?cookie)[\"']?$")
# … unless it ends in one of these: a page cursor is not a credential, nor is MCP's
# progressToken or LSP's workDoneToken and partialResultToken (each only ties progress
# notifications to their request).
NOT_SECRET_SUFFIXES = (
    "pagetoken", "nexttoken", "continuationtoken", "synctoken", "cursortoken", "progresstoken",
    "paginationtoken",
    "workdonetoken", "partialresulttoken",
)  # fmt: skip

# Cheap tests that rule most texts out before any pattern looks for names: every name above,
# folded, holds one of these words (a test keeps it so).
_NAME_WORDS = (
    "token", "secret", "pass", "pwd", "key", "auth", "cookie", "credential", "session", "sig",
    "verifier", "code", "proxy", "cvc", "cvv", "cardverification", "bearer", "pw", "sess",
    "appid", "saml", "mnemonic", "phrase", "securestring", "honeycomb", "pin",
)  # fmt: skip


@dataclass(frozen=True)
class Secret:
    """One value that looks live: where it is in the text, and what names it."""

    start: int  # offsets of the value in the text
    end: int
    what: str  # for people: 'the "password" key', "the Authorization header", "a JWT"
    mask: str = MASK  # what replaces it: quoted where a bare mask would break JSON


# --- what is a placeholder, and what looks like a credential ---------------------------------

# Values that stand in for a secret and hold none: a mask, a variable, a word for nothing.
_STAND_IN = (
    r"<[^<>]*>"  # <redacted>, <token>
    r"|\[[^\[\]]*\]"  # [redacted]
    r"|[xX*•.…_\-]+"  # xxx, ***, ..., …
    r"|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%"  # $TOKEN, ${TOKEN}, %TOKEN%
    r"|\$[0-9]{1,3}|\?|:[A-Za-z_][A-Za-z0-9_]*"  # SQL's bind parameters: $1, ?, :token
    r"|\{\{[^{}]*\}\}|\{[A-Za-z_][A-Za-z0-9_ .\-]*\}"  # {{token}}, {token}
    r"|`[A-Za-z_][A-Za-z0-9_.\-]*`"  # `access_token`: Markdown's code naming the value
    r"|(?i:redacted|masked|hidden|removed|placeholder|none|null|undefined|true|false)"
    r"|(?i:bearer|basic|digest|token|negotiate|ntlm)"  # a scheme with nothing after it
    r"|[^\n]*(?:XXXXXX|xxxxxx)[^\n]*"  # filled in with x: hooks.slack.com/…/XXXXXXXXXXXXXXXX
)


# Values written as an example of a secret: no warning says they look live, but a redacted
# picture masks them as well, for a real password can be `abc123` or `secret`.
_EXAMPLE = (
    r"(?i:string|example|sample|dummy|changeme|secret|password)"
    # classic dummies
    r"|(?i:foo|bar|baz|qux|foobar|xyz|abc|abc123|test|demo|1234|12345|123456)"
    # cut short on purpose: `sk-proj-abc1…`; a JWT's header and claims, `eyJhbGciOi…`, say
    # nothing secret however long. (Most of a key, cut where a label or note ends, is a key.)
    r"|[^\n]{0,24}(?:…|\.\.\.)|eyJ[\w\-]*(?:\.[\w\-]*)?(?:…|\.\.\.)"
    r"|(?i:your|my)[_\- ][A-Za-z_\- ]*"  # your_api_key, YOUR-TOKEN
    # lower-case words naming what the value stands for, numbered (fcm-token-1,
    # session-token-2) or said to be a sample (test_api_key): made to be read in a diagram
    r"|(?:[a-z]+[_\-])*(?:token|secret|key|password|session|cookie)(?:[_\-][a-z]+)*[_\-][0-9]{1,3}"
    r"|(?:test|demo|sample|example|dummy|fake|placeholder)[_\-](?:[a-z]+[_\-])*"
    r"(?:token|secret|key|password|session|cookie)(?:[_\-][a-z]+)*"
    r"|[^\n]*EXAMPLE[^\n]*"  # AWS's documented keys: AKIAIOSFODNN7EXAMPLE, …/bPxRfiCYEXAMPLEKEY
)


_FILE_NAME = r"[^\n]*\.[A-Za-z]{2,4}"
# A program's call, `bin2hex(random_bytes(16))`: how a value is made, not the value
_CALL = r"[A-Za-z_][\w.]*\(.*\)"
# A protocol's name and version, as a request or status line writes it: `HTTP/1.1`
_PROTOCOL = r"(?i)(?:HTTP|HTTPS|SPDY|RTSP|SIP)/\d+(?:\.\d+)?"

# Values that specifications print as their examples: diagrams copy them from there, and they
# open nothing.
DOCUMENTED_EXAMPLES = frozenset(
    {
        "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk",  # RFC 7636 (PKCE) code_verifier
        "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",  # RFC 7636 code_challenge
        "SplxlOBeZQQYbYS6WxSbIA",  # RFC 6749 (OAuth 2.0) authorization code
        "2YotnFZFEjr1zCsicMWpAA",  # RFC 6749 access token
        "tGzv3JOkF0XG5Qx2TlKWIA",  # RFC 6749 refresh token
        "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDDX1uTcs=",  # Standard Webhooks signature
    }
)


def is_placeholder(value: str) -> bool:
    """Whether a value is written as a stand-in or an example rather than a real credential."""
    return is_stand_in(value) or is_example(value)


def is_stand_in(value: str) -> bool:
    """Whether a value holds no secret at all: empty, a mask (`<redacted>`, `***`), a variable
    (`$TOKEN`, `{{token}}`), a word for nothing (`null`). One word of lower case, upper case
    and digits is a password written in a stand-in's marks (`$uperSecret1`, `<S3cr3t!Pa55>`,
    `{MyP4ssw0rd}`), not a stand-in. A comma or semicolon after it is the list's or the
    statement's it stands in (`FSPIOP-Signature: <FSPIOP-Signature>,` in an object)."""
    value = value.strip().removesuffix(",").removesuffix(";").strip().strip("\"'").strip()
    if not value:
        return True
    if re.compile(_STAND_IN).fullmatch(value) is None:
        return False
    # `<clientSecret123>` names one, `<S3cr3t!Pa55>` is one
    if re.compile(_IN_BRACKETS).fullmatch(value):
        return not (
            re.compile(_PASSWORD_SHAPED).fullmatch(value)
            and re.compile(_SYMBOL).search(value[1:-1])
        )
    return not (
        re.compile(_IN_MARKS).fullmatch(value) and re.compile(_PASSWORD_SHAPED).fullmatch(value)
    )


# A stand-in's marks around one word: $TOKEN, %TOKEN%, :token, {token}, `token` (not `${…}`,
# a template's always); and brackets: <token>, [token]
_IN_MARKS = r"\$[A-Za-z_]\w*|%\w+%|:[A-Za-z_]\w*|\{[A-Za-z_][\w .\-]*\}|`[A-Za-z_][\w.\-]*`"
_IN_BRACKETS = r"<[^<>]*>|\[[^\[\]]*\]"
_SYMBOL = r"[!@#$%^&*+=?~]"  # what a password holds and a placeholder's name never
_PASSWORD_SHAPED = r"(?=\S*[a-z])(?=\S*[A-Z])(?=\S*[0-9])\S+"


def is_example(value: str) -> bool:
    """Whether a value is written as an example (`abc123`, `changeme`, `sk-proj-abc1…`, the
    RFCs' own): never warned about, but masked when the output is redacted."""
    value = value.strip().strip("\"'").strip()
    return value in DOCUMENTED_EXAMPLES or bool(re.compile(_EXAMPLE).fullmatch(value))


def credential_like(value: str) -> bool:
    """Whether one word looks like a key rather than a word: eight characters or more, with
    letters and digits, no spaces, and not a file's name nor a protocol's version."""
    value = value.strip("\"'")
    return (
        len(value) >= 8
        and not any(c.isspace() for c in value)
        and any(c.isdigit() for c in value)
        and any(c.isalpha() for c in value)
        and not re.compile(_FILE_NAME).fullmatch(value)
        and not re.compile(_CALL).fullmatch(value)
        and not re.compile(_PROTOCOL).fullmatch(value)
        and not is_placeholder(value)
    )


def _fold(text: str) -> str:
    return text.lower().replace("-", "").replace("_", "").replace(".", "")


@lru_cache(maxsize=4096)
def _strength(key: str) -> str | None:
    """How a name holds a secret: "strong" when every value is one, "weak" when the value must
    look like a credential too, None when it does not.

    Kept per name: a diagram's bodies repeat the same few keys ("id", "type", "content") on
    every message."""
    folded = _fold(key).strip("\"'").replace("%5b", "[").replace("%5d", "]")
    # a form's nested field, `user[password]` (`user%5Bpassword%5D` as browsers send it), by
    # its last part that is a name (`password[]`, `token[0]`: the name before the brackets)
    if folded.endswith("]"):
        parts = [part for part in re.split(r"[\[\]]", folded) if part and not part.isdigit()]
        folded = parts[-1] if parts else folded
    folded = folded.rsplit(":", 1)[-1]  # an XML namespace: ns:Password
    if folded.endswith(NOT_SECRET_SUFFIXES):
        return None
    if (
        folded in SECRET_NAMES
        or folded.endswith(SECRET_SUFFIXES)
        or _PREFIXED_HEADER.search(key.lower())
    ):
        return "strong"
    return "weak" if folded in WEAK_SECRET_NAMES or folded.endswith(WEAK_SECRET_SUFFIXES) else None


def secret_name(key: str) -> bool:
    """Whether a header, JSON key, XML element or parameter name is one that holds a secret."""
    return _strength(key) is not None


def _secret_value(name: str, value: str, prose: bool) -> bool:
    strength = _strength(name)
    if strength is None or is_stand_in(value):
        return False
    folded = _fold(name).strip("\"'")
    if _fold(value.strip("\"'` ")) == folded and not _password_name(folded):
        return False  # `access_token=access_token`: a token named by its key (`pwd=pwd` is one)
    if _password_name(folded) and _page_address(value.strip("\"'")):
        return False  # `"forgot_password": "https://…/forgot"`: a page, not a password
    if (folded == "sig" or folded.endswith("signature")) and _public_signature(value):
        return False  # a function's (code intelligence's answer), a commit's PGP signature
    if strength == "weak":
        if folded in PIN_NAMES:
            return re.compile(_PIN_NUMBER).fullmatch(value.strip("\"' \t")) is not None
        if folded == "key" and _store_path(value.strip("\"'")):
            return False  # a store's key (S3's `uploads/user-42/avatar`, Redis's `user:1234`)
        if folded in _ID_NAMES and re.compile(_IDENTIFIER).fullmatch(value.strip("\"'")):
            return False  # an issue's key (`PROJ-1234`), a bucket's, an app's id
        return credential_like(value) and (folded != "code" or _code_like(value))
    return not prose or _key_in_prose(value) or _card_code(name, value)


def _key_in_prose(value: str) -> bool:
    """Whether a value a label or note names as a secret looks like one: a credential, or
    the start of one cut short (`Bearer 9f8e7d6c5b4a…`), an example that is never warned of
    but masked when the output is redacted, as it is in a body."""
    if credential_like(value):
        return True
    head = value.strip("\"'").removesuffix("…").removesuffix("...")
    return len(head) < len(value.strip("\"'")) and credential_like(head)


def _card_code(name: str, value: str) -> bool:
    """Whether a value is a card's security code under one of its names (`"cvc": "314"`)."""
    return _card_code_name(name) and bool(re.compile(_CARD_CODE).fullmatch(value))


def _card_code_name(name: str) -> bool:
    return _fold(name).strip("\"'") in CARD_CODE_NAMES


def _code_like(value: str) -> bool:
    """Whether a `code` holds what an OAuth authorization code is written with (base64url,
    hex, percent-encoded): `"code": "print(1)"` is a program, not a code, and nor is a
    contract's bytecode (`"code": "0x6080…"`, as Ethereum's JSON-RPC writes it)."""
    value = value.strip("\"'")
    return (
        re.compile(_CODE_SHAPED).fullmatch(value) is not None
        and re.compile(_BYTECODE).fullmatch(value) is None
        and re.compile(_ERROR_CODE).fullmatch(value) is None
    )


_CODE_SHAPED = r"[A-Za-z0-9._~+/=%-]+"
# A web address with no user or password in it (`"forgot_password": "https://…/forgot"`): a
# page, not a secret, unless a part of its path looks like a key (a webhook's); a token in its
# query is found as any URL's is
_ADDRESS = r"https?://[^\s@\"'/?#]+(?P<path>/[^\s@\"'?#]*)?(?:[?#][^\s\"']*)?"


def _page_address(value: str) -> bool:
    found = re.compile(_ADDRESS).fullmatch(value)
    return found is not None and not any(
        credential_like(part) for part in (found["path"] or "").split("/")
    )


def _password_name(folded: str) -> bool:
    """Whether a folded name is a password's (`db_password`, `pwd`, `PASS`; not `bypass`)."""
    return folded == "pass" or folded.endswith(_PASSWORD_ENDINGS)


# Weak names that often hold an id: a long number or words and a number under one is no secret
_ID_NAMES = frozenset({"key", "code", "appid"})


# What a "signature" holds that is no secret: a function's, `func(ctx context.Context) error`,
# and a PGP signature, which is published to be checked (and a person's name: `_person`)
_PUBLIC_SIGNATURE = (
    r"(?s)[\"']?(?:[A-Za-z_][\w.]*[ \t]*\([^()=]*\)(?:[ \t]+[\w.*\[\]<>,]+)*[\"']?"
    r"|-----BEGIN PGP SIGNATURE-----.*)"
)


def _public_signature(value: str) -> bool:
    return re.compile(_PUBLIC_SIGNATURE).fullmatch(value) is not None or _person(value.strip("\"'"))


def _person(value: str) -> bool:
    """Whether a value reads as a person's name, as signed: two to five words of letters (an
    initial's dot, an apostrophe or a hyphen within), each written as names are, capitalised,
    in capitals, in a script without case (`山田 太郎`), or a particle in small letters
    (`Ludwig van Beethoven`); a token's letters and digits mixed are none."""
    words = value.split()
    if not 2 <= len(words) <= 5:
        return False
    named = 0
    for word in words:
        parts = re.split(r"[-'’]", word.strip("."))  # `Jean-Luc`, `O'Brien`: each part
        if not all(part.isalpha() for part in parts) or len(word) > 24:
            return False
        if all(map(_as_named, parts)):
            named += 1
        elif not word.islower() or len(word) > 4:  # `van`, `de`, `bin`: a particle
            return False
    return named >= 2


def _as_named(part: str) -> bool:
    """Whether a word (or a part of one) is written as a name is: `Doe`, `DOE`, `J`, or in a
    script without case (`山田`, `محمد`)."""
    return (part[0].isupper() and (part[1:].islower() or not part[1:])) or (
        part.isupper() or part.lower() == part.upper()
    )


# Words and the number after them (`PROJ-1234`, `user-12345678`, `feature_flag_2024`), or a
# reverse domain name (`com.example.app2`): what names a thing, not a key's bytes
_IDENTIFIER = r"[A-Za-z]+(?:[-_.][A-Za-z]+)*[-_.][0-9]+|[a-z]+(?:\.[a-z][a-z0-9]*){2,}"
_BYTECODE = r"0x[0-9A-Fa-f]*"
_ERROR_CODE = r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"  # `E_AUTH_1234`, `ERR_TOO_MANY_2`
# lower-case words and numbers joined by `/` or `:`: a path in a store, not a key's bytes
_KEY_PATH = r"[a-z0-9_.\-]+(?:[:/][a-z0-9_.\-]+)+"


def _store_path(value: str) -> bool:
    """Whether a `key`'s value is a path in a store, none of its parts a credential
    (`admin:s3cr3tpassw0rd` is a user and a password)."""
    return bool(re.compile(_KEY_PATH).fullmatch(value)) and not any(
        credential_like(part) for part in re.split(r"[:/]", value)
    )


def _may_name_secret(text: str) -> bool:
    """False when no part of the text can be a secret name: its folded form holds no name word.

    Folding maps each character on its own, so a part's folded form is part of the text's.
    """
    return _NAME_WORD.search(_fold(text)) is not None


_NAME_WORD = re.compile("|".join(map(re.escape, _NAME_WORDS)))


def _holds(*needs: str) -> Callable[[str], bool]:
    return lambda text: any(need in text for need in needs)


def _finds(pattern: str) -> Callable[[str], bool]:
    search = re.compile(pattern).search
    return lambda text: search(text) is not None


def _short(name: str) -> str:
    return name if len(name) <= 40 else name[:39] + "…"


# --- where a credential sits: headers, fields, parameters, URLs, command lines ---------------

# JSON strings and numbers, each scanned once: a key is a string followed by `:`.
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')
_KEY_COLON = re.compile(r"[ \t\r\n]*:[ \t\r\n]*")  # a value may go on the next line
# `Authorization: Bearer …` anywhere in a line: the credential after the scheme
_INLINE_AUTHORIZATION = (
    r"(?i)\b((?:proxy-)?authorization)(?:[ \t]*(:)[ \t]*|[ \t]+)(?:bearer|basic|token|digest)"
    r"[ \t]+([^\s\"'\\,;<>`]+)"
)  # its colon left out (`Authorization Basic dXNl…` in a label), the value must look like a key
# `Bearer …` with no header's name before it (an error line quoting what was refused, a
# header's value cut from its name): the credential after it, when it looks like a key
# (not a path's or a host's part: `GET /oauth/bearer HTTP/1.1` names an endpoint)
_BEARER = r"(?i)(?<![\w./-])bearer[ \t]+([^\s\"'\\,;<>`()\[\]{}]+)"
# `Name: value` anywhere in a line, where the value must look like a credential; the name may
# open a quoted string (a header kept as a string in JSON) or stand in emphasis or code
_INLINE_PAIR = (
    r"([\"'*`]?)\b([A-Za-z][\w.\-]{0,79})(\*{1,2}|`)?[ \t]*:[ \t]*([^\s\"'\\,;<>`()\[\]{}]+)"
)
# `name: "value"` (or with the quotes escaped, in a string of JSON) anywhere in a line
_QUOTED_PAIR = (
    r'(?<!["\\])\b([A-Za-z][\w.\-]{0,79})[ \t]*:[ \t]*'
    r'(?:\\"((?:[^"\\\n]|\\[^"\n])*+)\\"|"(?![ \t]*[,:}\]])([^"\\\n]*)")'  # see _PARAM
)
_LIST_GAP = r"[ \t\r\n]*,?[ \t\r\n]*"
# `\"key\": \"value\"`: a pair of JSON written as a string inside JSON
_ESCAPED_PAIR = r'\\"([^"\\\n]{1,80})\\"[ \t]*:[ \t]*\\"((?:[^"\\\n]|\\[^"\n])*+)\\"'
# LSP's progress messages, whose `"token"` only ties a report to the work it reports on.
_PROGRESS_METHOD = r'"method"\s*:\s*"(?:\$/progress|window/workDoneProgress/(?:create|cancel))"'


# A progress message's token where LSP writes it, after its method, in JSON on one line or
# several: `"method": "$/progress", "params": {"token": …`
_PROGRESS_TOKEN = (
    _PROGRESS_METHOD + r'\s*,\s*"params"\s*:\s*\{\s*"token"\s*:\s*("(?:[^"\\\n]|\\.)*"|-?[0-9]+)'
)


def _progress_tokens(text: str) -> frozenset[str]:
    """The token of each LSP progress message in a text: that value is no secret, while a
    `"token"` another message of the same text carries may be one. (A token written before
    its method is not known so, and is looked at as any.)"""
    return frozenset(found[1].strip('"') for found in re.compile(_PROGRESS_TOKEN).finditer(text))


def _token_text(text: str, start: int) -> str:
    """The JSON string's or number's text at `start`, quotes left out: what a progress
    message's token is compared by."""
    value = (
        _STRING.match(text, start)
        if text.startswith('"', start)
        else re.compile(_SCALAR).match(text, start)
    )
    return value.group().strip('"') if value else ""


# A number as long as a numeric key; `"token": 3` is a count.
_NUMBER = r"-?[0-9][0-9.eE+\-]{7,80}"
# `Key: value` or `key = value` at the start of a line (headers, YAML, .env, key: value bodies).
_LINE_PAIR = re.compile(
    r"[ \t]*(?:-[ \t]+)?(?:export[ \t]+)?([A-Za-z][A-Za-z0-9_.\-]{0,79})[ \t]*([:=])[ \t]*"
)
# `key=value` in a query string or fragment, a form body, a cookie list, a connection string
# (a quote then `,`, `:`, `}` or `]` closes a JSON string, `"missing token=", "code": 1`: no value);
# `key="value"` in an HTTP auth parameter list (`Digest response="…"`, `sig="…", bearer="…"`),
# or as a JSON string holds it (`"export API_TOKEN=\"…\""`, a shell command in a tool call).
# A bare value stops before an escape that is a quote, a backslash, a line break, a tab or
# a `\u0026` (an escaped `&`): no mask splits one.
_PARAM = (
    r"(?<![^?#&;,\s\"'(])([A-Za-z][A-Za-z0-9_.\-\[\]%]{0,79})="
    r"(?:\\\"((?:[^\"\\\n]|\\[^\"\n])*+)\\\""  # \"…\", in a JSON string
    r"|\"(?![ \t]*[,:}\]])([^\"\n]*)\""  # "…"
    # as it stands, up to a Markdown link's `](` (`[…?access_token=x](https://…)`)
    r"|((?:(?!\]\()[^&#;,\s\"'<>\\](?:(?!\]\()[^&#;,\s\"'<>\\]|\\[^\"\\nrtu])*)?))"
)
# A string item of a list, in either quotes; the other quote may stand inside it, as Python's
# repr writes a cookie's quoted value (`['sid="…"; Path=/']`).
# An HTTP auth parameter after a scheme (` bearer="…"`, ` sig=…`, or that masked already):
# what follows a scheme word.
_AUTH_PARAM_AFTER = r"[ \t]+(?:[A-Za-z][A-Za-z0-9_\-]*=|<redacted>)"
_QUOTED = r"'((?:[^'\\\n]|\\.)*+)'|\"((?:[^\"\\\n]|\\.)*+)\""
_SCHEME_VALUE = r"([A-Za-z][A-Za-z0-9_\-]{0,30})[ \t]+(\S.*)"


# An HTML element's start tag, and its quoted attributes
_HTML_TAG = r"(?i)<(?:meta|input)\b[^<>]{0,600}>"

_HTML_ATTRIBUTE = r"([A-Za-z][\w:-]*)[ \t\n]*=[ \t\n]*([\"'])([^\"'<>]*)\2"


# <password>…</password>, <ns:AccessKey attr="x">…</ns:AccessKey>
_XML = r"<([A-Za-z][\w:.\-]{0,79})(?:\s[^<>]{0,400})?>([^<]*)</\1\s*>"
# A setting of .NET's web.config or app.config: `<add key="ApiKey" value="…" />`
_XML_SETTING = (
    r"(?i)<add\s+(?:key|name)\s*=\s*([\"'])(?P<key>[^\"'<>]{1,80})\1\s+value\s*=\s*"
    r"([\"'])(?P<value>[^\"'<>\n]*)\3"
)


# scheme://user:password@host (a DATABASE_URL, a proxy, a git remote)
# (`mysql:\/\/root:…@db` as PHP's JSON writes it too)
_URL_USERINFO = r"[A-Za-z][A-Za-z0-9+.\-]{1,30}:(?://|\\/\\/)[^\s/?#@:\"'<>\\]*:([^\s/?#@\"'<>]+)@"


# .npmrc: //registry.npmjs.org/:_authToken=…
_NPMRC = r":(_authToken|_auth|_password)[ \t]*=[ \t]*([^\s\"']+)"


# curl -H "Name: value", curl -u user:password, curl -b "name=value"
_CURL_HEADER = r"(?<!\S)(?:-H|--header|--proxy-header)[ \t]*=?[ \t]*([\"'])([^\n]*?)\1"

_CURL_USER = r"(?<!\S)(?:-u|--user|-U|--proxy-user)[ \t]*=?[ \t]*([\"']?)[^\s\"':]*:([^\s\"']+)\1"


_CURL_COOKIE = r"(?<!\S)(?:-b|--cookie)[ \t]*=?[ \t]*([\"'])([^\n]*?)\1"


def _header_values(name: str, value: str, start: int, prose: bool) -> Iterator[tuple[int, int]]:
    """The secret parts of a header's value: after the scheme, or each cookie's value."""
    folded = name.lower()
    if _cookie_header(folded) and "=" in value:
        if not folded.endswith("set-cookie"):
            yield from _cookie_values(value, start, first_only=False, prose=prose)
            return
        # several Set-Cookie fields folded into one with commas (as some proxies and HAR
        # writers do): each cookie's first pair (an `Expires` date's comma starts none)
        at = 0
        for fold in re.compile(_FOLDED_COOKIE).finditer(value + ","):
            yield from _cookie_values(value[at : fold.start()], start + at, True, prose)
            at = fold.end()
        return
    scheme = re.compile(_SCHEME_VALUE).fullmatch(value)
    if folded.endswith("authorization") and scheme:
        if not is_stand_in(scheme.group(2)) and not (prose and not _key_in_prose(scheme.group(2))):
            yield start + scheme.start(2), start + len(value)
    elif _secret_value(name, value, prose):
        yield start, start + len(value)


# The comma before another cookie's `name=` (a token, RFC 6265), or the end
_FOLDED_COOKIE = r",[ \t]*(?=[!#$%&'*+\-.^_`|~0-9A-Za-z]+=)|,$"


def _cookie_header(name: str) -> bool:
    """Whether a name (lower case) is a Cookie or Set-Cookie header, on its own or recorded
    under a prefix (`http.request.header.cookie`): its value is `name=value` pairs."""
    if not name.rstrip("\"'").endswith("cookie"):
        return False  # `http.request.header.authorization` is prefixed too, but no cookie
    return name in ("cookie", "set-cookie") or _PREFIXED_HEADER.search(name) is not None


def _cookie_values(
    value: str, start: int, first_only: bool, prose: bool = False
) -> Iterator[tuple[int, int]]:
    """Each cookie's value (a Set-Cookie's first pair only: the rest are its attributes); in
    prose, as an Authorization header's, only one that looks like a credential."""
    pairs = value.split(";")
    offset = start
    for pair in pairs[:1] if first_only else pairs:
        key, eq, cookie = pair.partition("=")
        if eq and not is_stand_in(cookie) and not (prose and not _key_in_prose(cookie)):
            lead = len(cookie) - len(cookie.lstrip())
            yield offset + len(key) + 1 + lead, offset + len(pair.rstrip())
        offset += len(pair) + 1


def _describe(name: str, header: bool) -> str:
    """`the Authorization header`, `the Stripe-Signature header`, `the "password" key`."""
    if header and (
        name.lower() in ("authorization", "proxy-authorization", "cookie", "set-cookie")
        or ("-" in name and name[:1].isupper())
    ):
        return f"the {_short(name)} header"
    return f'the "{_short(name)}" key'


def _line_secrets(text: str, prose: bool) -> Iterator[Secret]:
    """`Name: value` and `name = value` lines: headers, YAML, .env files; a header's value
    may be folded onto the indented line below it (`Authorization:`, then ` Bearer …`, as
    HTTP/1.1 once allowed and YAML still does)."""
    offset = 0
    lines = text.split("\n")
    # a YAML item's secret `name:`, its key's column, and whether it names loosely
    named: tuple[str, int, bool] | None = None
    for k, line in enumerate(lines):
        match = _LINE_PAIR.match(line)
        if named is not None and line.strip():
            indent = len(line) - len(line.lstrip())
            own = match is not None and match.start(1) == named[1] and line[indent] != "-"
            if indent <= named[1] and not own:
                named = None  # the item ended: a line left of its keys, or another item
        if match and match.group(2) == ":" and match.group(1).lower() in _NAMING_KEYS:
            naming = line[match.end() :].strip().strip("\"'")
            if secret_name(naming):  # Kubernetes' `- name: DB_PASSWORD` then `value: …`
                named = (naming, match.start(1), _named_loosely(match.group(1), naming))
        elif (
            match
            and named is not None
            and match.start(1) == named[1]  # a key of the same item, not of one inside it
            and match.group(1).lower() in _NAMED_VALUE_KEYS
        ):
            given = line[match.end() :].rstrip()
            what = f'the "{_short(named[0])}" value'
            inside = given[:1] in "\"'" and len(given) > 1 and given[-1] == given[0]
            start = offset + match.end() + (1 if inside else 0)
            for begin, end in _header_values(
                named[0], given[1:-1] if inside else given, start, prose or named[2]
            ):
                yield Secret(begin, end, what)
            named = None
        if match and secret_name(match.group(1)):
            value = line[match.end() :].rstrip()
            start = offset + match.end()
            below = lines[k + 1] if k + 1 < len(lines) else ""
            if match.group(2) == ":" and not value and _folded(below):
                indent = len(below) - len(below.lstrip(" \t"))
                value, start = below.rstrip()[indent:], offset + len(line) + 1 + indent
            quoted = value.rstrip(",;")  # `device_token: "abc123...",` in a JS object
            if quoted[:1] in "\"'" and len(quoted) > 1 and quoted[-1] == quoted[0]:
                value = quoted[1:-1]
                start += 1
            if match.group(2) == ":" and value.startswith("[") and _strength(match.group(1)):
                # a header's values as a list (`set-cookie: ['a=1; HttpOnly', 'b=2']`)
                what = _describe(match.group(1), header=True)
                for item in re.compile(_QUOTED).finditer(value):
                    inner = 1 if item.group(1) is not None else 2
                    for begin, end in _header_values(
                        match.group(1), item.group(inner), start + item.start(inner), prose
                    ):
                        yield Secret(begin, end, what)
            elif match.group(2) == ":" and value.startswith(("{", "[")):
                pass  # a YAML or JSON container: its own keys are looked at
            elif match.group(2) == "=" and "&" in value:
                pass  # a form or query string: each parameter is looked at on its own
            else:
                what = _describe(match.group(1), header=match.group(2) == ":")
                for begin, end in _header_values(match.group(1), value, start, prose):
                    yield Secret(begin, end, what)
        offset += len(line) + 1


def _folded(line: str) -> bool:
    """Whether a line continues the value of the line above it: indented, and no `key:` of a
    mapping of its own."""
    if line[:1] not in (" ", "\t") or not line.strip():
        return False
    pair = _LINE_PAIR.match(line)
    return pair is None or pair.group(2) != ":"


# An object that names a value by another key: HAR's `{"name": "Authorization", "value": …}`,
# AWS SSM's `{"Name": "/prod/db/password", "Type": "SecureString", "Value": …}`, Postman's
# `{"key": "X-API-Key", "value": …}`, CloudFormation's `ParameterKey`/`ParameterValue`, tags'
# `Key`/`Value` (lower case here)
_NAMING_KEYS = frozenset({"name", "key", "parameterkey", "type"})
_NAMED_VALUE_KEYS = frozenset({"value", "parametervalue"})


def _named_loosely(naming_key: str, naming: str) -> bool:
    """Whether a value named by another key must look like a credential to be one: a `key`
    or a `type` names data as often as a secret (a translation's `{"key": "login.password",
    "value": "Password"}`, a stream's `{"type": "token", "value": "Hello"}`); a `name` is a
    header's or a variable's (HAR, Kubernetes), and SSM's `"Type": "SecureString"` says so."""
    return naming_key.lower() != "name" and naming.lower() != "securestring"


def _json_secrets(text: str, prose: bool) -> Iterator[Secret]:
    """Values of JSON keys named like secrets, in valid JSON or not (a body cut short, NDJSON),
    each string of such a key's list (`"Authorization": ["Bearer …"]`, as Go and API Gateway
    write headers), the values of objects that name them by another key (`_NAMING_KEYS`), and
    pairs in JSON held as a string in JSON (an MCP tool's result text)."""
    named = ""  # the secret name a naming key gave, for the value key after it in its object
    named_at = 0  # where that name ends: a brace between it and the value key parts them
    named_loosely = False  # whether the value it names must look like a credential too
    progress = _progress_tokens(text) if "rogress" in text else frozenset()
    cookies_end, cookie_map = -1, False  # where a "cookies" list or object ends, and which
    # each string starts where the one before it ended
    for key in _STRING.finditer(text):
        colon = _KEY_COLON.match(text, key.end())
        name = _unescaped_key(key.group())
        if colon is None or not name:
            continue
        start = colon.end()
        value = _STRING.match(text, start) if text.startswith('"', start) else None
        closed = value is not None and len(value.group()) > 1 and value.group().endswith('"')
        # a string the line cuts open (a log line cut at its length limit, a paste cut
        # short) holds the value up to where it stops
        content = None if value is None else value.group()[1:-1] if closed else value.group()[1:]
        if name.lower() == "cookies" and text.startswith(("[", "{"), start):
            cookie_map = text.startswith("{", start)
            cookies_end = _flat_end(text, start)
            continue
        if (
            key.start() < cookies_end
            and content
            and (cookie_map or name.lower() in _NAMED_VALUE_KEYS)
            and not is_stand_in(content)
        ):
            yield Secret(start + 1, start + 1 + len(content), "a cookie's value")
            continue
        if named and re.search(r"[{}]", text[named_at : key.start()]):
            named = ""  # another object
        folded = name.lower()
        loose = False
        if folded in _NAMED_VALUE_KEYS and named:
            name, named, loose = named, "", named_loosely
        elif folded in _NAMING_KEYS and value is not None and content is not None:
            naming = _unescaped_key(value.group())
            if secret_name(naming):
                if not named:
                    named, named_at = naming, value.end()
                    named_loosely = _named_loosely(folded, naming)
                elif not _named_loosely(folded, naming):  # SSM's `"Type": "SecureString"`
                    named_loosely = False  # after its `"Name"`: a secret, whatever it looks like
                continue
        if not secret_name(name) or (
            name == "token"
            and (
                (progress and _token_text(text, start) in progress)
                or (
                    content is not None
                    and value is not None
                    and not credential_like(content)
                    and _model_output(text, key.start(), value.end())
                )
            )
        ):
            continue
        what = f'the "{_short(name)}" key'
        if content is None and text.startswith("{", start):
            # `"adminPassword": {"value": …}`, as Azure's parameter files write it
            named, named_at = name, start + 1
            continue
        if content is not None:
            for begin, end in _header_values(name, content, start + 1, prose or loose):
                yield Secret(begin, end, what)
        elif text.startswith("[", start):
            for item in _list_strings(text, start + 1):
                for begin, end in _header_values(name, item.group()[1:-1], item.start() + 1, prose):
                    yield Secret(begin, end, what)
        elif value is None and (number := _number_secret(name, text, start, prose)):
            yield Secret(*number.span(), what, mask=f'"{MASK}"')
    for pair in re.compile(_ESCAPED_PAIR).finditer(text):
        if secret_name(pair.group(1)):
            what = f'the "{_short(pair.group(1))}" key'
            for begin, end in _header_values(pair.group(1), pair.group(2), pair.start(2), prose):
                yield Secret(begin, end, what)


# a language model's token beside its log-probability (OpenAI's, Ollama's `logprobs`): a word
# of the answer, not a credential
_LOGPROB_KEY = r'"(?:logprob|top_logprobs)"[ \t\r\n]*:'


def _flat_end(text: str, start: int) -> int:
    """Where the list or object that opens at `start` ends, when it holds no list or object
    of the same kind (a browser's cookies: `[{"name": "sid", "value": "…"}]`, or
    `{"sid": "…"}`); the text's end when it is cut short."""
    end = text.find("]" if text.startswith("[", start) else "}", start)
    return len(text) if end < 0 else end


def _model_output(text: str, key_start: int, value_end: int) -> bool:
    """Whether the `"token"` key at `key_start` is in an object that holds a log-probability:
    read from the brace that opens it to the brace that closes it, or 400 characters each way."""
    opened = text.rfind("{", max(0, key_start - 400), key_start)
    closed = text.find("}", value_end, value_end + 400)
    around = text[opened if opened >= 0 else key_start : closed if closed >= 0 else value_end]
    return re.compile(_LOGPROB_KEY).search(around) is not None


def _unescaped_key(written: str) -> str:
    """A JSON string's text, its escapes read (`"p\\u0061ssword"` names a password)."""
    if "\\" in written:
        try:
            return str(json.loads(written))
        except ValueError:
            pass
    return written[1:-1]


def _may_name_secret_in_json(text: str) -> bool:
    """`_may_name_secret`, or a JSON key may spell a name with escapes."""
    return _may_name_secret(text) or "\\u" in text


def _list_strings(text: str, start: int) -> Iterator[re.Match[str]]:
    """The closed strings of the JSON list that starts at `start` (after its `[`), past its
    nulls, numbers and booleans (`[null, "…"]`), up to its end or a list or object in it."""
    at = start
    while True:
        at = re.compile(_LIST_GAP).match(text, at).end()  # type: ignore[union-attr]  # it matches nothing too
        if text.startswith('"', at):
            item = _STRING.match(text, at)
            if item is None or len(item.group()) < 2 or not item.group().endswith('"'):
                return  # a string the text cuts open
            yield item
        else:
            item = re.compile(_SCALAR).match(text, at)
            if item is None:
                return  # the list's end, or a list or object in it
        at = item.end()


_SCALAR = r"null\b|true\b|false\b|-?[0-9][0-9.eE+\-]*"
_DIGITS = r"[0-9]{4,}(?![0-9.eE])"  # a numeric password's
_PASSWORD_ENDINGS = ("password", "passwd", "pwd", "passcode")


def _number_secret(name: str, text: str, start: int, prose: bool) -> re.Match[str] | None:
    """A JSON number under a secret's name: a security code's three or four digits
    (`"cvv": 123`), a PIN's four to eight, or, outside prose, a number as long as a numeric
    key under a name that does not often hold an id (`"key": 1704067200000` is a date
    histogram's bucket), or any of four digits or more under a password's."""
    folded = _fold(name).strip("\"'")
    if _card_code_name(name):
        return re.compile(_CARD_CODE).match(text, start)
    if folded in PIN_NAMES:
        return re.compile(_PIN_NUMBER).match(text, start)
    if prose or folded in _ID_NAMES:
        return None
    if _password_name(folded):  # `"password": 4829137`: a short one is enough
        return re.compile(_NUMBER).match(text, start) or re.compile(_DIGITS).match(text, start)
    return re.compile(_NUMBER).match(text, start)


def _inline_secrets(text: str, prose: bool) -> Iterator[Secret]:
    """A credential named within a line, not at its start: `request with Authorization: Bearer
    …` in a log's words, a header kept as a string in JSON (`"headers": ["Authorization: …"]`),
    `password: \\"…\\"` in a GraphQL query held in JSON."""
    for match in re.compile(_INLINE_AUTHORIZATION).finditer(text):
        value = match.group(3)
        if not is_stand_in(value) and ((not prose and match.group(2)) or credential_like(value)):
            yield Secret(*match.span(3), _describe(match.group(1), header=True))
    for match in re.compile(_BEARER).finditer(text):
        if credential_like(match.group(1)):
            yield Secret(*match.span(1), "a bearer token")
    for match in re.compile(_QUOTED_PAIR).finditer(text):
        value = 2 if match.group(2) is not None else 3  # its quotes escaped, or not
        if secret_name(match.group(1)) and _secret_value(match.group(1), match.group(value), prose):
            yield Secret(*match.span(value), f'the "{_short(match.group(1))}" key')
    # `GET /me with X-Api-Key: 7c1e…`, in prose and in a body's free text alike (so that a
    # body's reading finds all a label's does): only a name spelled as a header's or a
    # field's is, that always holds a secret (`cache key: user:1234` is no key), and only a
    # value that looks like one (a body's words say `password: required`). So is one set
    # apart as a name: at the start of a quoted string (`["Cookie: sid=…"]`, a header kept
    # as a string in JSON), or in emphasis or code (`**password**: …`). An Authorization's
    # scheme is read above.
    for match in re.compile(_INLINE_PAIR).finditer(text):
        before, name, after = match.group(1), match.group(2), match.group(3)
        value = match.group(4).rstrip(".")
        set_apart = before in ('"', "'") or (bool(before) and after is not None)
        spelled = any(c in name for c in "-_.") or name[1:] != name[1:].lower()
        if not (set_apart or spelled):  # a word of the sentence: "the endpoint's secret: HMAC"
            continue
        if _strength(name) == "strong" and not name.lower().endswith("authorization"):
            what = _describe(name, header=True)
            for begin, end in _header_values(name, value, match.start(4), prose=True):
                yield Secret(begin, end, what)


_PAIR_START = r"[A-Za-z][A-Za-z0-9_.\-]{0,79}="
# A value in brackets, which may hold spaces where a bare value cannot (`[CF_Authorization
# redacted]`, as a capture's scrubber writes its stand-ins; `[correct horse battery staple]`)
_BRACKETED = r"\[[^\[\]\n]{1,80}\]|\{[^{}\n]{1,80}\}"
# The words a scrubber writes in place of what it took out
_LEFT_OUT = (
    r"(?i)\b(?:redacted|removed|masked|hidden|filtered|omitted|elided|scrubbed|stripped"
    r"|sanitized|sanitised|censored|obfuscated|truncated)\b"
)


def _param_secrets(text: str, prose: bool) -> Iterator[Secret]:
    for match in re.compile(_PARAM).finditer(text):
        # quoted as JSON holds it, quoted, or as it stands
        value = next((group for group in (2, 3) if match.group(group) is not None), 4)
        start, end = match.span(value)
        opened = match.start() > 0 and text[match.start() - 1] == "("
        if value == 4 and opened and text[start:end].endswith(")"):
            end -= 1  # `(PGPASSWORD=hunter22)`: the parenthesis closes around the pair
        bracketed = re.compile(_BRACKETED).match(text, start) if value == 4 else None
        if bracketed and re.search(r"\s", bracketed[0]):  # words in brackets, read whole
            if re.search(_LEFT_OUT, bracketed[0]):
                continue  # a scrubber's stand-in: `token=[token redacted]`
            if _secret_value(match.group(1), bracketed[0][1:-1], prose=False):
                yield Secret(start, bracketed.end(), f'the "{_short(match.group(1))}" parameter')
            continue  # `password=[correct horse battery staple]`: a passphrase
        if (
            value == 4
            and match.group(1).lower().endswith("authorization")
            and re.compile(_AUTH_PARAM_AFTER).match(text, end)
        ):
            continue  # `Authorization=libp2p-PeerID bearer="…"`: the scheme; its params follow
        if _secret_value(match.group(1), text[start:end], prose=False):
            yield Secret(start, end, f'the "{_short(match.group(1))}" parameter')
        elif value == 4 and re.compile(_PAIR_START).match(text, start):
            # a value that is a list of pairs itself (OpenTelemetry's
            # `OTEL_EXPORTER_OTLP_HEADERS=Authorization=Basic%20…,x-honeycomb-team=…`)
            for inner in _param_secrets(text[start:end], prose):
                yield replace(inner, start=inner.start + start, end=inner.end + start)


# A key and its string as the languages write a map that JSON does not: a Python dict's repr
# (`{'access_token': '…'}`, what `print(token)` and logged headers show), a JavaScript object
# (`{ password: '…' }`), PHP's and Ruby's arrows (`'password' => '…'`, `:password => "…"`).
# JSON's own pairs, and `name: "value"`, are read above.
_MAP_PAIR = (
    r"(?:'(?P<single>[^'\\\n]{1,80})'|\"(?P<double>[^\"\\\n]{1,80})\""
    r"|(?<![\w.\-'\"\\:$])(?P<bare>[A-Za-z_$][\w.\-$]{0,79})"
    r"|(?<![\w:]):(?P<symbol>[A-Za-z_]\w{0,79}))"
    r"[ \t]*(?P<arrow>:|=>)[ \t]*"
    r"(?:'(?P<value>(?:[^'\\\n]|\\.)*)'|\"(?P<quoted>(?:[^\"\\\n]|\\.)*)\")"
)


def _map_secrets(text: str, prose: bool) -> Iterator[Secret]:
    for match in re.compile(_MAP_PAIR).finditer(text):
        if match["value"] is None and match["arrow"] == ":" and match["single"] is None:
            continue  # `"key": "…"` and `key: "…"`: JSON's and a quoted pair's, read above
        name = match["single"] or match["double"] or match["bare"] or match["symbol"]
        group = "value" if match["value"] is not None else "quoted"
        what = f'the "{_short(name)}" key'
        for begin, end in _header_values(name, match[group], match.start(group), prose):
            yield Secret(begin, end, what)


# `name = 'value'` inside a line: SQL's `WHERE api_token = '…'` (a trace's `db.statement`),
# a script's `secret='…'`; not a name after a JSON string's escape (`\npassword=` is a string's
# last line, its quote the string's end)
_QUOTED_ASSIGNMENT = (
    r"(?<![\w.\-\\])([A-Za-z][\w.\-]{0,79})[ \t]*=[ \t]*"
    r"(?:'([^'\n]*)'|\"(?![ \t]*[,:}\]])([^\"\n]*)\")"
)


def _assignment_secrets(text: str, prose: bool) -> Iterator[Secret]:
    for match in re.compile(_QUOTED_ASSIGNMENT).finditer(text):
        value = 2 if match.group(2) is not None else 3
        if _secret_value(match.group(1), match.group(value), prose):
            yield Secret(*match.span(value), f'the "{_short(match.group(1))}" value')


def _xml_secrets(text: str, prose: bool) -> Iterator[Secret]:
    for match in re.compile(_XML).finditer(text):
        if _secret_value(match.group(1), match.group(2).strip(), prose):
            yield Secret(*match.span(2), f"the <{_short(match.group(1))}> element")
    for match in re.compile(_XML_SETTING).finditer(text):
        if _secret_value(match["key"], match["value"], prose):
            yield Secret(*match.span("value"), f'the "{_short(match["key"])}" setting')


def _html_field_secrets(text: str, prose: bool) -> Iterator[Secret]:
    """An HTML element that names a secret and holds its value in an attribute: a page's
    `<meta name="csrf-token" content="…">`, a form's `<input name="authenticity_token"
    value="…">` (a capture's HTML response, which the next request sends back)."""
    for tag in re.compile(_HTML_TAG).finditer(text):
        attributes = {
            match.group(1).lower(): (match.group(3), match.start(3))
            for match in re.compile(_HTML_ATTRIBUTE).finditer(tag.group())
        }
        name = attributes.get("name") or attributes.get("id")
        if name is None or not secret_name(name[0]):
            continue
        for holder in ("content", "value"):
            value, at = attributes.get(holder, ("", 0))
            if value and _secret_value(name[0], value, prose):
                yield Secret(
                    tag.start() + at,
                    tag.start() + at + len(value),
                    f'the "{_short(name[0])}" field',
                )


def _command_line_secrets(text: str, prose: bool) -> Iterator[Secret]:
    """curl's `-H "Name: value"`, `-u user:password` and `-b "cookies"`, and `.npmrc` lines."""
    for match in re.compile(_CURL_HEADER).finditer(text):
        name, colon, value = match.group(2).partition(":")
        if colon and secret_name(name.strip()):
            lead = len(value) - len(value.lstrip())
            start = match.start(2) + len(name) + 1 + lead
            for begin, end in _header_values(name.strip(), value.strip(), start, prose):
                yield Secret(begin, end, f"the {name.strip()} header")
    for match in re.compile(_CURL_USER).finditer(text):
        if not is_stand_in(match.group(2)):
            yield Secret(*match.span(2), "the password of curl's --user")
    for match in re.compile(_CURL_COOKIE).finditer(text):
        for begin, end in _cookie_values(match.group(2), match.start(2), first_only=False):
            yield Secret(begin, end, "the cookie of curl's --cookie")
    for match in re.compile(_LONG_FLAG).finditer(text):  # `mysql --password=…`, `--api-key …`
        group = 2 if match.group(2) is not None else 3  # quoted, or as it stands
        value = match.group(group)
        # a value that looks like a key: `--secret my-db-password` names a secret, it is none
        if secret_name(match.group(1)) and _secret_value(match.group(1), value, prose=True):
            start = match.start(group)
            yield Secret(start, start + len(value), f"the {match.group(1)} option")
    for match in re.compile(_NPMRC).finditer(text):
        if not is_stand_in(match.group(2)):
            yield Secret(*match.span(2), f"the {match.group(1)} of an .npmrc")
    for match in re.compile(_SHORT_PASSWORD_FLAG).finditer(text):
        command = next(c for c in match.groups()[:3] if c is not None)
        group = next(g for g in (4, 5, 6) if match.group(g) is not None)
        if command.startswith("mysql") and re.fullmatch(r"[0-9:]+", match.group(group)):
            continue  # `-p3306:3306` after `--name mysql`: a port, not mysql's password
        if not is_stand_in(match.group(group)):
            yield Secret(*match.span(group), f"the password of {command}")


# A command's long option with its value: `--password=…`, `--token "…"`, `--api-key …`, or
# the next item of an argument list (`["--db-password", "…"]`, YAML's `- --db-password` then
# `- …`, as a container's `args:` write it)
_LONG_FLAG = (
    r"(?<![\w-])--([A-Za-z][\w-]{1,40})"
    r"(?:=|[ \t]+(?:\\\r?\n[ \t]*)?"  # its value after `=`, a space, or a `\` line's end
    r"|[\"'][ \t]*,[ \t]*(?:\r?\n[ \t]*)?(?=[\"'])|[\"']?[ \t]*\r?\n[ \t]*-[ \t]+)"
    r"(?:[\"']([^\"'\n]*)[\"']|([^\s\"'`\\<>|&;-][^\s\"'`]*))"
)


# A password given by a command's short option: `redis-cli -a …`, `sshpass -p …`, and
# `mysql -p…` (written against the letter: `-p` alone asks for it, and the word after it is
# the database)
_SHORT_PASSWORD_FLAG = (
    r"(?<![\w/.-])(?:(redis-cli)\b[^\n|;&]*?[ \t]-a[ \t]+|(sshpass)[ \t]+-p[ \t]*"
    r"|(mysql(?:dump|admin)?)\b[^\n|;&]*?[ \t]-p(?=\S))"
    r"(?:'([^'\n]*)'|\"([^\"\n]*)\"|([^\s'\"|;&]+))"
)


# the part's name, quoted as RFC 7578 writes it or bare as some clients send it
_FORM_DATA_NAME = (
    r"(?im)^content-disposition:[ \t]*form-data;[^\n]*?\bname="
    r'(?:"([^"\n]{1,80})"|([^";\s]{1,80}))'
)


_BLANK_LINE = r"\r?\n\r?\n"


def _multipart_secrets(text: str, prose: bool) -> Iterator[Secret]:
    """A multipart/form-data part named like a secret: its value is the line after the blank
    line that ends the part's headers."""
    blank: re.Match[str] | None = None
    for match in re.compile(_FORM_DATA_NAME).finditer(text):
        if blank is None or blank.start() < match.end():  # the one found is still ahead: kept
            blank = re.compile(_BLANK_LINE).search(text, match.end())
        if blank is None:
            return  # no later part has its value either
        name = match.group(1) or match.group(2)
        if not secret_name(name):
            continue
        start = blank.end()
        end = len(text)
        for stop in ("\r", "\n"):
            found = text.find(stop, start)
            end = found if 0 <= found < end else end
        if _secret_value(name, text[start:end], prose):
            yield Secret(start, end, f'the "{_short(name)}" form field')


def _url_secrets(text: str, prose: bool = False) -> Iterator[Secret]:
    for match in re.compile(_URL_USERINFO).finditer(text):
        if not is_stand_in(match.group(1)):
            yield Secret(*match.span(1), "the password in a URL")
    for pattern, what in (
        (re.compile(_DISCORD_WEBHOOK), "a Discord webhook's token"),
        (re.compile(_SLACK_WEBHOOK_PATH), "a Slack webhook's token"),
    ):
        for match in pattern.finditer(text):
            if not is_placeholder(match.group(1)):
                yield Secret(*match.span(1), what)


# A percent escape of an ASCII character (`%22` is `"`): what encodes a form's or a query's
# quotes, colons, `=` and `&`. Escapes of other bytes are left as written (no secret's name
# or punctuation needs them).
_PERCENT_ESCAPE = re.compile(r"%[0-7][0-9A-Fa-f]")
_ESCAPE_OR_PLUS = re.compile(r"%[0-7][0-9A-Fa-f]|\+")


def _percent_decoded(text: str) -> tuple[str, Sequence[int]]:
    """The text with its ASCII percent escapes decoded, and a form's `+` read as the space it
    stands for (in a text that holds an escape), and where each of its characters starts in
    `text` (one more entry: where the text ends)."""
    return _rewritten(
        text,
        _ESCAPE_OR_PLUS,
        lambda found: (" " if found[0] == "+" else chr(int(found[0][1:], 16)), found.start()),
    )


def _rewritten(
    text: str,
    pattern: re.Pattern[str],
    each: Callable[[re.Match[str]], tuple[str, int]],
    offset: int = 0,
) -> tuple[str, Sequence[int]]:
    """`text` with each match of `pattern` written as the one character `each` gives, with
    the place in `text` that character stands for (or taken out, where it gives none); and
    where each character of the result stands in `text`, plus `offset` (one more entry: where
    the text ends). The places are machine integers: a body of megabytes has as many."""
    written: list[str] = []
    where = array("q")
    at = 0
    for found in pattern.finditer(text):
        written.append(text[at : found.start()])
        where.extend(range(offset + at, offset + found.start()))
        character, place = each(found)
        if character:
            written.append(character)
            where.append(offset + place)
        at = found.end()
    written.append(text[at:])
    where.extend(range(offset + at, offset + len(text) + 1))
    return "".join(written), where


# A Discord webhook: whoever has its URL posts to the channel (the token is its last part).
# A capture may give its path alone, the host in a header of its own.
_DISCORD_WEBHOOK = (
    r"(?i:(?:https?://(?:ptb\.|canary\.)?discord(?:app)?\.com)?/api(?:/v\d+)?/webhooks/)"
    r"[0-9]{15,22}/([A-Za-z0-9_\-]{40,100})"
)


# A Slack incoming webhook's path (detect-secrets knows the whole URL): its last part is the
# secret.
_SLACK_WEBHOOK_PATH = r"/services/T[A-Z0-9]{6,}/B[A-Z0-9]{6,}/([A-Za-z0-9]{20,})"


# A password in an ADO.NET or ODBC connection string runs to its `;`, `&` and all
# (`Server=db;User Id=app;Password=Tr0ub4dor&3xyz;`), where a query string's stops at `&`.
_CONNECTION_PASSWORD = (
    r"(?i)(?<=;)[ \t]*(?:password|pwd)[ \t]*=[ \t]*([^;\"'\n]+)"  # a later field: to its end
    r"|(?:^|(?<=[\s\"']))(?:password|pwd)[ \t]*=[ \t]*([^;\"'\n]+);"  # the first: to its `;`
)


# SQL that sets a password: `ALTER LOGIN app WITH PASSWORD = '…'`, `CREATE ROLE r PASSWORD
# '…'`, `CREATE USER u IDENTIFIED BY '…'`, MySQL's `SET PASSWORD FOR 'app'@'%' = '…'` and
# `IDENTIFIED WITH caching_sha2_password BY '…'`.
# The word is followed by a space or an `=`: in `{'password': '…'}` the quote after it closes a
# key, and the `: ` between the two strings is no password.
_SQL_PASSWORD = (
    r"(?i)\b(?:password(?:[ \t]+for[ \t]+\S+)?|identified(?:[ \t]+with[ \t]+\w+)?[ \t]+by)"
    r"(?:[ \t]+|[ \t]*=[ \t]*)'([^'\n]*)'"
)


# A .netrc's entry: `machine api.heroku.com login ada@example.com password …`
_NETRC_PASSWORD = (
    r"(?m)^[ \t]*(?:machine[ \t]+\S+|default)(?:\s+(?:login|account|port)\s+\S+)*"
    r"\s+password[ \t]+(\S+)"
)


# A `.pgpass` line, `host:port:database:user:password` (the host a name or an address, the port
# a number or `*`), as a note showing PostgreSQL's password file has it
_PGPASS_LINE = (
    r"(?m)^[ \t]*(?=[^\s:]*[A-Za-z.*])[^\s:#]+:(?:[0-9]{1,5}|\*):[^\s:]+:[^\s:]+:(\S+)[ \t]*$"
)


# Redis's `AUTH [user] password`, as a client's span records the command (`db.statement`)
_REDIS_AUTH = r"(?m)(?<![\w-])AUTH[ \t]+(?:[^\s\"']+[ \t]+)?([^\s\"']+)[ \t]*(?=$|[\"\n])"


def _statement_secrets(text: str, prose: bool = False) -> Iterator[Secret]:
    """Passwords in connection strings, SQL statements and Redis's `AUTH`, as traces record
    them (`db.connection_string`, `db.statement`), and in a `.netrc` and a `.pgpass`."""
    # a .netrc's entry on its own line or over several, as written
    for match in re.compile(_NETRC_PASSWORD).finditer(text):
        if _secret_value("password", match.group(1), prose=True):  # "password policy": words
            yield Secret(*match.span(1), "the password of a .netrc")
    for pattern, what in (
        (re.compile(_CONNECTION_PASSWORD), "the password of a connection string"),
        (re.compile(_SQL_PASSWORD), "a password in SQL"),
    ):
        for match in pattern.finditer(text):
            group = next((g for g in range(1, (pattern.groups or 0) + 1) if match.group(g)), 0)
            if group and not is_stand_in(match.group(group)):  # `PASSWORD ''` sets none
                yield Secret(*match.span(group), what)
    for match in re.compile(_PGPASS_LINE).finditer(text):  # `kafka:9092:orders:0:42`: no password
        if _secret_value("password", match.group(1), prose=True):
            yield Secret(*match.span(1), "the password of a .pgpass line")
    for match in re.compile(_REDIS_AUTH).finditer(text):  # `AUTH failed`: words, no password
        if _secret_value("password", match.group(1), prose=True):
            yield Secret(*match.span(1), "the password of Redis's AUTH")


# --- payment card numbers --------------------------------------------------------------------


# A card number as people write it: in groups of four (Visa, Mastercard, Discover), as American
# Express groups them (4-6-5), or in one run of 14 to 16 digits, standing alone.
_CARD_NUMBER = (
    r"(?<![\w\-])(?<!\d\.)(?:"
    r"\d{4}([ \-])\d{4}\1\d{4}\1\d{4}"
    r"|\d{4}([ \-])\d{6}\2\d{4,5}"
    r"|(?P<run>\d{14,16})"
    r")(?!\w|\.\d|[ \-]\d)"
)


# A run of digits is a card number only where a name just before it says so (`"number":`,
# `card_number=`, `PAN:`): URLs and captures are full of 16-digit ids, one in ten of which
# passes the check digit by chance.
_CARD_CONTEXT = r"(?i)card|\bpan\b|\bcc(?:[_-]?num(?:ber)?)?\b|(?<![\w-])number[\"']?[ \t]*[:=]"


# (issuer prefixes, lengths) of the networks whose cards people paste: Visa; Mastercard (51-55,
# 2221-2720); American Express; Discover; JCB; Diners Club; UnionPay. Longer numbers (up to 19
# digits, rare on cards) are left out: a 64-bit id is 19 digits; and Visa's 13-digit ones,
# long retired, are as many digits as an EAN-13 barcode.
_CARD_NETWORKS: tuple[tuple[tuple[str, ...], tuple[int, ...]], ...] = (
    (("4",), (16,)),
    (("51", "52", "53", "54", "55", *(str(n) for n in range(2221, 2721))), (16,)),
    (("34", "37"), (15,)),
    (("6011", "65", *(str(n) for n in range(644, 650))), (16,)),
    (tuple(str(n) for n in range(3528, 3590)), (16,)),
    (("36", "300", "301", "302", "303", "304", "305"), (14,)),
    (("38", "39"), (14, 16)),
    (("62",), (16,)),
)
# The test cards payment providers publish (Stripe, Braintree, Adyen, PayPal and the
# networks' own): they open nothing, and docs show them on purpose, as AWS's EXAMPLE keys.
TEST_CARDS = frozenset(
    {
        "4242424242424242", "4000056655665556", "4000002500003155", "4000002760003184",
        "4000000000003220", "4000000000000002", "4000000000009995", "4000000000000069",
        "4000000000000127", "4000000000000119", "4000000000000077", "4000000000000341",
        "4111111111111111", "4012888888881881", "4005519200000004", "4009348888881881",
        "4012000033330026", "4012000077777777", "4217651111111119", "4500600000000061",
        "4400000000000008", "4444333322221111", "4917610000000000",
        "5555555555554444", "2223003122003222", "5200828282828210", "5105105105105100",
        "5454545454545454", "5431111111111111", "5500000000000004", "5555555555555557",
        "2222400010000008", "2223000048410010",
        "378282246310005", "371449635398431", "378734493671000", "370000000000002",
        "6011111111111117", "6011000990139424", "6011000400000000", "6011601160116611",
        "6445644564456445", "6555900000604105",
        "3530111333300000", "3566002020360505", "3566111111111113", "3569990010095841",
        "30569309025904", "38520000023237", "36227206271667", "36006666333344",
        "6200000000000005", "6221261111117766",
    }
)  # fmt: skip


def card_number(digits: str) -> bool:
    """Whether a run of digits is a payment card number: a network's prefix and length, and
    the check digit right (Luhn's rule), and not one of the published test cards."""
    if not any(
        len(digits) in lengths and digits.startswith(prefixes)
        for prefixes, lengths in _CARD_NETWORKS
    ):
        return False
    total = 0
    for index, digit in enumerate(reversed(digits)):
        value = int(digit) * (2 if index % 2 else 1)
        total += value - 9 if value > 9 else value
    return total % 10 == 0 and digits not in TEST_CARDS


def _card_numbers(text: str, prose: bool = False) -> Iterator[Secret]:
    """Payment card numbers, wherever they stand. One written as a JSON number (`"number":
    4917…`) is masked as a string, so the body stays JSON."""
    for match in re.compile(_CARD_NUMBER).finditer(text):
        if not card_number(re.sub(r"[ \-]", "", match.group())):
            continue
        if match["run"]:
            line_start = text.rfind("\n", 0, match.start()) + 1
            named = text[max(line_start, match.start() - 32) : match.start()]
            if not re.compile(_CARD_CONTEXT).search(named):
                continue
        before = text[max(0, match.start() - 40) : match.start()].rstrip(" \t")
        after = text[match.end() :].lstrip(" \t")[:1]
        quoted = (before.endswith('":') or before.endswith(("[", ","))) and after in ",}]"
        yield Secret(*match.span(), "a payment card number", mask=f'"{MASK}"' if quoted else MASK)


# --- token shapes ----------------------------------------------------------------------------

# volley's own shapes, for what the detectors of detect-secrets do not know: a text each needs
# (the cheap test that lets a text through to the search), the shape, and what it is
_SHAPES = (
    ("github_pat_", r"github_pat_[A-Za-z0-9_]{30,}", "a GitHub token"),  # fine-grained
    ("xox", r"xox[abposre]-[A-Za-z0-9\-]{10,}", "a Slack token"),  # any; `xoxe-`: a refresh
    ("AIza", r"AIza[0-9A-Za-z_\-]{35}", "a Google API key"),
    ("ya29.", r"ya29\.[0-9A-Za-z_\-]{20,}", "a Google OAuth token"),
    ("GOCSPX-", r"GOCSPX-[0-9A-Za-z_\-]{20,}", "a Google OAuth client secret"),
    ("whsec_", r"whsec_[A-Za-z0-9]{20,}", "a Stripe webhook secret"),
    ("npm_", r"npm_[A-Za-z0-9]{36}", "an npm token"),
    ("hf_", r"hf_[A-Za-z0-9]{30,}", "a Hugging Face token"),
    ("sk-", r"sk-[A-Za-z0-9_\-]{20,}", "an API key"),  # OpenAI, Anthropic and similar
    ("shp", r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", "a Shopify token"),
    ("hv", r"hv[sb]\.[A-Za-z0-9_\-]{24,}", "a Vault token"),
    ("_v1_", r"do[opr]_v1_[a-f0-9]{64}", "a DigitalOcean token"),
    ("ATATT3", r"ATATT3[A-Za-z0-9_\-=]{50,}", "an Atlassian API token"),
    ("glsa_", r"glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}", "a Grafana token"),  # service account
    ("lin_api_", r"lin_api_[A-Za-z0-9]{40}", "a Linear API key"),
    ("gsk_", r"gsk_[A-Za-z0-9]{40,}", "a Groq API key"),
    ("pplx-", r"pplx-[A-Za-z0-9]{40,}", "a Perplexity API key"),
    ("r8_", r"r8_[A-Za-z0-9]{30,}", "a Replicate token"),
    ("xai-", r"xai-[A-Za-z0-9]{60,}", "an xAI API key"),
    ("dckr_pat_", r"dckr_pat_[A-Za-z0-9_\-]{20,}", "a Docker Hub token"),
    ("figd_", r"figd_[A-Za-z0-9_\-]{30,}", "a Figma token"),
    ("ntn_", r"ntn_[A-Za-z0-9]{40,}", "a Notion token"),
    ("sntry", r"sntry[su]_[A-Za-z0-9+/=_]{40,}", "a Sentry token"),
    ("sbp_", r"sbp_[a-f0-9]{40}", "a Supabase token"),
    ("sb_secret_", r"sb_secret_[A-Za-z0-9_\-]{20,}", "a Supabase key"),
    ("PMAK-", r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", "a Postman API key"),
    ("nfp_", r"nfp_[A-Za-z0-9]{36}", "a Netlify token"),
    ("tskey-", r"tskey-(?:auth|api|client|webhook)-[A-Za-z0-9]{8,}-[A-Za-z0-9]{20,}",
     "a Tailscale key"),
    ("NRAK-", r"NRAK-[A-Z0-9]{27}", "a New Relic API key"),
    ("glc_", r"glc_[A-Za-z0-9+/=_]{32,}", "a Grafana Cloud token"),
    ("ik_", r"hc[a-z]ik_[a-z0-9]{20,}", "a Honeycomb key"),
    ("sq0", r"sq0(?:atp|csp)-[0-9A-Za-z_\-]{22,}", "a Square token"),
    ("ops_", r"ops_[A-Za-z0-9]{40,}", "a 1Password token"),  # a service account's
    ("AGE-SECRET-KEY-", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", "an age key"),
    ("dapi", r"dapi[a-f0-9]{32}", "a Databricks token"),
    ("HRKU-", r"HRKU-[A-Za-z0-9_\-]{20,}", "a Heroku token"),
    # five parts, the key's often empty (`dir`): NextAuth's session, which no JWT check takes
    ("eyJ", r"eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]*(?:\.[A-Za-z0-9_\-]{10,}){3}",
     "an encrypted JWT (JWE)"),
)  # fmt: skip


# each shape a group of its own, so that a match names its shape (`lastgroup`)
_TOKEN_SHAPES = (
    r"(?<![A-Za-z0-9_\-])(?:"
    + "|".join(f"(?P<shape{k}>{shape})" for k, (_, shape, _) in enumerate(_SHAPES))
    + ")"
)


_OWN_SHAPE_STARTS = tuple(needs for needs, _, _ in _SHAPES)
# An AWS secret access key on its own: 40 characters of base64 standing alone.
_BARE_AWS_SECRET = r"(?<![A-Za-z0-9/+=_\-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_\-])"


_PEM_BEGIN = r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"

_PEM_END = r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----"


_NAME_PREFIX = r"[A-Za-z]+="
_TOKEN_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")

# The detectors of detect-secrets used, each with a cheap test that is False only when its
# patterns cannot match: a text failing it is never given to the detector, and a diagram
# failing them all never loads the package (importing it takes about a third of a second).
# Left out: the keyword, entropy and IP detectors (the names above know traffic better, and
# entropy alone flags ids and hashes), Twilio's (an account SID is an id in every URL),
# Artifactory's (matches ordinary words), Discord's (nothing cheaper than its own pattern can
# rule it out), npm's and OpenAI's (their patterns are not linear in a long line; the shapes
# above cover them), the private key and basic-auth detectors (found above with the span of
# the whole block or password).
_DETECTORS: tuple[tuple[str, str, Callable[[str], bool]], ...] = (
    ("aws", "AWSKeyDetector", _finds(r"A3T|ABIA|ACCA|AKIA|ASIA|(?i:aws)[^\n]{0,60}?['\"]")),
    ("azure_storage_key", "AzureStorageKeyDetector", _holds("AccountKey=")),
    ("github_token", "GitHubTokenDetector", _holds("ghp_", "gho_", "ghu_", "ghs_", "ghr_")),
    (
        "gitlab_token",
        "GitLabTokenDetector",
        _holds(
            "glpat-",
            "gldt-",
            "glft-",
            "glsoat-",
            "glrt-",
            "GR1348941",
            "glcbt-",
            "glimt-",
            "glptt-",
            "glagent-",
            "gloas-",
        ),
    ),  # fmt: skip
    ("jwt", "JwtTokenDetector", _holds("eyJ")),
    ("mailchimp", "MailchimpDetector", _finds(r"-us[0-9]")),
    ("pypi_token", "PypiTokenDetector", _holds("pypi-")),
    ("sendgrid", "SendGridDetector", _holds("SG.")),
    ("slack", "SlackDetector", lambda t: "xox" in t.lower() or "hooks.slack.com" in t.lower()),
    ("square_oauth", "SquareOAuthDetector", _holds("sq0csp-")),
    ("stripe", "StripeDetector", _holds("k_live_")),
    ("telegram_token", "TelegramBotTokenDetector", _finds(r"[0-9]{8}:")),
)


@cache
def _detector(module: str, name: str):
    """One detector of detect-secrets, made once; its `analyze_string` keeps no state."""
    return getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)()


def _detectors_for(text: str, every: bool) -> Iterator[tuple[str, str]]:
    for module, name, may_match in _DETECTORS:
        if every or may_match(text):
            yield module, name


def _article(kind: str) -> str:
    return f"an {kind}" if kind[:1].lower() in "aeiou" else f"a {kind}"


def _detected_secrets(text: str, prose: bool = False, every: bool = False) -> Iterator[Secret]:
    """What the detectors of detect-secrets find, with its place in the text.

    A detector's `denylist` patterns say where; its `analyze_string` on what a pattern matched
    confirms it (a JWT must decode). The span is a pattern's longest group when that is the
    value (AWS's keyword form), carried on to the end of its token (a Stripe key longer than
    the pattern's 24 characters, a JWT's signature), and loses a leading `Name=`; one that
    starts inside a run of digits is none (Telegram's `\\d{8,10}:` in an AWS ARN's
    `:123456789012:topic`). Only the
    detectors whose needed strings the text holds run, unless `every` (for tests).
    """
    for module, name in _detectors_for(text, every):
        detector = _detector(module, name)
        for pattern in detector.denylist:
            covered = 0  # where the last token ended: each character is carried over once
            for match in pattern.finditer(text):
                if match.start() < covered or not any(detector.analyze_string(match.group())):
                    continue
                spans = [match.span(g) for g in range(1, (match.re.groups or 0) + 1)]
                start, end = max(spans + [(0, 0)], key=lambda span: span[1] - span[0])
                if end - start < 8:
                    start, end = match.span()
                if prefix := re.compile(_NAME_PREFIX).match(text, start, end):
                    start = prefix.end()
                if start and text[start].isdigit() and text[start - 1].isdigit():
                    continue  # the end of a longer number: an ARN's account and topic name
                while end < len(text) and text[end] in _TOKEN_CHARACTERS:
                    end += 1
                covered = end
                if not is_placeholder(text[start:end]):
                    yield Secret(start, end, _article(detector.secret_type))


def _own_shapes(text: str, prose: bool = False) -> Iterator[Secret]:
    """Token shapes of volley's own."""
    for match in re.compile(_TOKEN_SHAPES).finditer(text):
        if not is_placeholder(match.group()):
            yield Secret(*match.span(), _SHAPES[int(str(match.lastgroup)[5:])][2])


# Kubernetes takes a bearer token as a WebSocket subprotocol, where a browser cannot set
# Authorization: `Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io.<token>, …`
_WEBSOCKET_BEARER = r"(?i)\bbase64url\.bearer\.authorization\.k8s\.io\.([A-Za-z0-9_\-]+)"


# … and as the subprotocol after a word that says a token follows, as clients that cannot set
# Authorization send it: `Sec-WebSocket-Protocol: access_token, <token>` (Hasura, Supabase's
# realtime, many a GraphQL server)
_WEBSOCKET_TOKEN = (
    r"(?i)sec-websocket-protocol(?:[\"']?[ \t]*[:=][ \t]*[\"']?"
    r"|\"[ \t]*,[ \t]*\"value\"[ \t]*:[ \t]*\")[^\n\"']*?"  # as a header, or HAR's pair
    r"\b(?:access_token|access-token|bearer|token|auth)[ \t]*,[ \t]*([A-Za-z0-9._~+/=\-]+)"
)


def _websocket_bearers(text: str, prose: bool = False) -> Iterator[Secret]:
    """The token in a Kubernetes bearer subprotocol (its name stays: it says what it was), or
    the subprotocol after `access_token` or `bearer`."""
    for match in re.compile(_WEBSOCKET_BEARER).finditer(text):
        if not is_placeholder(match[1]):
            yield Secret(*match.span(1), "a Kubernetes bearer token")
    for match in re.compile(_WEBSOCKET_TOKEN).finditer(text):
        if not is_stand_in(match[1]):
            yield Secret(*match.span(1), "a token in a WebSocket subprotocol")


# An Ethereum node's account methods (geth's `personal` namespace) and where their arguments
# hold a secret: a raw private key, or the passphrase of an account
_WALLET_SECRETS = {
    "personal_importRawKey": (0, 1),
    "personal_newAccount": (0,),
    "personal_unlockAccount": (1,),
    "personal_sendTransaction": (1,),
    "personal_signTransaction": (1,),
    "personal_sign": (2,),
}


def _wallet_secrets(text: str, prose: bool = False) -> Iterator[Secret]:
    """The private key and passphrases an Ethereum JSON-RPC call passes by position, which no
    name says are secrets, in the call's object wherever it stands in the text (a line of a
    log, a body among others)."""
    decoder = json.JSONDecoder()
    for method in re.compile(_WALLET_METHOD).finditer(text):
        places = _WALLET_SECRETS.get(method[1], ())
        opening = method.start()
        for _ in range(_WALLET_DEPTH):  # the object around the method: its nearest `{` that reads
            opening = text.rfind("{", 0, opening)
            if opening < 0:
                break
            try:
                call, end = decoder.raw_decode(text, opening)
            except (ValueError, RecursionError):  # not JSON, or nested past Python's reach
                continue
            if not isinstance(call, dict) or call.get("method") != method[1]:
                continue
            params = call.get("params")
            for place in places:
                if not isinstance(params, list) or place >= len(params):
                    continue
                value = params[place]
                if not isinstance(value, str) or is_stand_in(value):
                    continue
                for written in {json.dumps(value), json.dumps(value, ensure_ascii=False)}:
                    at = text.find(written, opening, end)
                    while at >= 0:
                        yield Secret(at + 1, at + len(written) - 1, f"a secret of {method[1]}")
                        at = text.find(written, at + len(written), end)
            break


_WALLET_METHOD = r'"method"[ \t\r\n]*:[ \t\r\n]*"(personal_\w+)"'
_WALLET_DEPTH = 8  # objects a call's `"method"` may stand in (its `params`' objects before it)


def _bare_aws_secrets(text: str, prose: bool = False) -> Iterator[Secret]:
    """40 characters of base64 standing alone, with upper and lower case letters and digits,
    and not a path (a git SHA-1 is hex: it has no upper case)."""
    for match in re.compile(_BARE_AWS_SECRET).finditer(text):
        key = match.group()
        if (
            not key.startswith("/")
            and not key.endswith("/")
            and "//" not in key
            and any(c.isupper() for c in key)
            and any(c.islower() for c in key)
            and any(c.isdigit() for c in key)
            and not is_placeholder(key)
        ):
            yield Secret(*match.span(), "an AWS secret access key")


def _private_keys(text: str, prose: bool = False) -> Iterator[Secret]:
    """The body of each private key block, from the end of its BEGIN line.

    A block ends at its END line, or where the next block begins. A block cut short (no END
    line) runs on while its lines look like a key (base64, or an armor header such as
    `Version: …`), or, written on one line inside a JSON string, to the string's end.
    """
    begin = re.compile(_PEM_BEGIN).search(text)
    while begin:
        after = re.compile(_PEM_BEGIN).search(text, begin.end())
        limit = after.start() if after else len(text)
        end = re.compile(_PEM_END).search(text, begin.end(), limit)
        stop = end.start() if end else min(_end_of_cut_key(text, begin.end()), limit)
        key = text[begin.end() : stop]
        if not is_placeholder(key):
            if end is None:
                mask = f"\n{MASK}" if key.startswith("\n") else MASK
            else:
                mask = f"\n{MASK}\n" if "\n" in key else MASK
            yield Secret(begin.end(), stop, "a private key", mask=mask)
        begin = after


_KEY_LINE = r"[ \t]*(?:[A-Za-z0-9+/=]*|[A-Za-z][A-Za-z\-]{0,30}: [^\n]*)[ \t]*"


def _end_of_cut_key(text: str, start: int) -> int:
    """Where a private key without its END line stops (see `_private_keys`)."""
    line_end = text.find("\n", start)
    rest_of_line = text[start : len(text) if line_end < 0 else line_end]
    if "\\n" in rest_of_line:  # `"-----BEGIN PRIVATE KEY-----\nMIIE…` in JSON
        quote = rest_of_line.find('"')
        return start + (len(rest_of_line) if quote < 0 else quote)
    stop = start if line_end < 0 else line_end
    while line_end >= 0:
        next_end = text.find("\n", line_end + 1)
        line = text[line_end + 1 : len(text) if next_end < 0 else next_end]
        if not re.compile(_KEY_LINE).fullmatch(line):
            break
        if line.strip():
            stop = line_end + 1 + len(line.rstrip())
        line_end = next_end
    return stop


# --- finding and masking ---------------------------------------------------------------------


# Each way of finding secrets, with a cheap test that is False only when it cannot find any in
# a text (tests/test_secrets_prefilter.py holds every test to that).
_Finders = tuple[tuple[Callable[..., Iterator[Secret]], Callable[[str], bool]], ...]
_FINDERS: _Finders = (
    (_line_secrets, _may_name_secret),
    (_json_secrets, _may_name_secret_in_json),
    (_inline_secrets, _may_name_secret),
    (_param_secrets, _may_name_secret),
    (_assignment_secrets, _may_name_secret),
    (_map_secrets, _may_name_secret),
    (_xml_secrets, _may_name_secret),
    (_html_field_secrets, _finds(r"(?i)<(?:meta|input)\b")),
    (_multipart_secrets, _holds("form-data", "Form-Data", "FORM-DATA")),
    (
        _command_line_secrets,
        _holds("-H", "-u", "-U", "-b", "--", ":_", "redis-cli", "sshpass", "mysql"),
    ),
    (_url_secrets, _holds("://", ":\\/\\/", "/webhooks/", "/services/T")),
    # pwd, password, identified: a first letter that is a set lets the search skip ahead
    (
        _statement_secrets,
        _finds(r"(?i)[pi](?:wd|assword|dentified)|AUTH[ \t]|:(?:[0-9]{1,5}|\*):[^\s:]+:[^\s:]+:"),
    ),
    (_own_shapes, _holds(*_OWN_SHAPE_STARTS)),
    (_websocket_bearers, _finds(r"(?i)bearer\.authorization\.k8s|websocket-protocol")),
    (_wallet_secrets, _holds("personal_")),
    (_bare_aws_secrets, lambda text: len(text) >= 40),
    (_private_keys, _holds("-----BEGIN ")),
    (_card_numbers, _finds(r"\d{4}[ \-]?\d{4}")),
    (_detected_secrets, lambda text: True),  # each detector has its own test
)
_WHOLE_TEXT_FINDERS = tuple(pair for pair in _FINDERS if pair[0] is _private_keys)
_LINE_FINDERS = tuple(pair for pair in _FINDERS if pair[0] is not _private_keys)


def _merged(found: list[Secret]) -> list[Secret]:
    """Secrets in text order, without overlaps (the first found of two that overlap wins)."""
    kept: list[Secret] = []
    for secret in sorted(found, key=lambda s: (s.start, -s.end)):
        if secret.end <= secret.start:
            continue
        if kept and secret.start < kept[-1].end:
            continue
        kept.append(secret)
    return kept


def _find(text: str, prose: bool) -> list[Secret]:
    """`_find_written`, and, in a text that holds what a reader does not see inside a token
    (`_visible`: a directional mark or a zero-width space pasted from a right-to-left page,
    a label's bold), the text as a reader sees it too, which no pattern would match across
    them: each secret found so is masked where it stands, those characters and all."""
    found = _find_written(text, prose)
    if not _hides(text, prose):
        return found
    visible, where = _visible(text, prose)
    found += [
        replace(secret, start=where[secret.start], end=where[secret.end - 1] + 1)
        for secret in _find_written(visible, prose)
    ]
    return _merged(found)


# What a reader does not see: Unicode's default-ignorable code points (the soft hyphen,
# joiners, directional marks and controls, variation selectors, Hangul fillers, tags …), the
# interlinear annotation signs, the line and paragraph separators.
_DRAWS_NOTHING = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
)
# Spaces that look like a plain one (a no-break space after `password:`), read as one.
_SPACES = "\u00a0\u2000-\u200a\u202f\u205f\u3000"
_UNSEEN = re.compile(f"[{_DRAWS_NOTHING}{_SPACES}]")
_UNSEEN_IN_PROSE = re.compile(f"[{_DRAWS_NOTHING}{_SPACES}*`]")  # prose's emphasis, code marks
_A_SPACE = f"[{_SPACES}]"


# A label's emphasis or code mark between two letters or digits: inside a word (`C3**d4…**`).
_GLUED_MARKUP = re.compile(r"\w[*`]+\w")


def _hides(text: str, prose: bool) -> bool:
    """Whether the text holds what a reader does not see inside a word: a character that
    draws nothing, a space that looks plain, or, in prose, markup glued to the letters."""
    return _UNSEEN.search(text) is not None or (prose and _GLUED_MARKUP.search(text) is not None)


def _visible(text: str, prose: bool) -> tuple[str, Sequence[int]]:
    """The text as a reader sees it (what draws nothing taken out, a space that looks plain
    read as one; in prose, its `*` and `` ` `` marks taken out too), and where each of its
    characters stands in `text` (one more entry: where the text ends)."""
    return _rewritten(
        text,
        _UNSEEN_IN_PROSE if prose else _UNSEEN,
        lambda found: (" " if re.compile(_A_SPACE).match(found[0]) else "", found.start()),
    )


def _find_written(text: str, prose: bool, depth: int = 3) -> list[Secret]:
    """The secrets in a body, or in prose line by line: a label's `\\n` and `<br>` end a
    line as the picture draws it, so no named value runs on past one; a private key, which
    spans lines by nature, is looked for in the whole text. Prose is read as it shows, its
    markup's escapes taken out (`ghp\\_…` shows as a token, and is one). What a form or a
    URL encodes once more (`data=%7B%22token%22%3A%22…`), or twice, is read decoded too; and
    each JSON string of a body that holds an escape, decoded on its own, as the program that
    gets it reads it (a file's lines in a tool's result, `"DB_HOST=db\\nDB_PASSWORD=…"`;
    JSON inside JSON, to `depth` strings deep): each secret found there is masked where it
    stands encoded, its mask escaped as the string's characters are."""
    found = _find_unencoded(text, prose)
    layers = 0
    for layer, where in decoded_layers(text):
        layers += 1
        found += [
            replace(secret, start=where[secret.start], end=where[secret.end])
            for secret in _find_unencoded(layer, prose)
        ]
    for string, where in () if prose or not depth else _json_strings(text):
        layers += 1
        found += [
            replace(secret, start=where[secret.start], end=where[secret.end], mask=_escaped(secret))
            for secret in _find_written(string, False, _inner_depth(string, depth))
        ]
    return _merged(found) if layers else found


def _inner_depth(string: str, depth: int) -> int:
    """How many strings deep a string's own strings are read: where JSON may stand in it (an
    object or a list, and quotes), read on; a program's or a page's quoted words alone are no
    strings of JSON."""
    holds_json = '"' in string and ("{" in string or "[" in string)
    return depth - 1 if holds_json else 0


def _json_strings(text: str) -> Iterator[tuple[str, Sequence[int]]]:
    """Each JSON string in `text` that holds an escape, or that may hold a pair of its own
    (`"password = …"`, which no line of the text starts), decoded (by `json`), with where
    each of its characters starts in `text` (one more entry: where its closing quote is)."""
    if '"' not in text:
        return
    for literal in _JSON_STRING.finditer(text):
        inner = literal[1]
        if "\\" not in inner:
            if ("=" in inner or ":" in inner) and _may_name_secret(inner):
                yield inner, range(literal.start(1), literal.end(1) + 1)
            continue
        try:
            decoded = json.loads(literal[0])
        except ValueError:  # not JSON's (a control character in it, an escape it has not)
            continue
        # each escape is one character, a surrogate pair's two escapes one too
        _, where = _rewritten(  # the text is json's: "?" stands for a character, unread
            inner, _JSON_ESCAPE, lambda found: ("?", found.start()), literal.start(1)
        )
        if len(where) == len(decoded) + 1:
            yield decoded, where


# A JSON string literal (its repeats possessive: a string of megabytes keeps no state to go
# back through), and an escape in one: `\"`, `\\`, `\n`, `\u00e9`, `\ud83d\ude00` …
_JSON_STRING = re.compile(r'"([^"\\\n]*+(?:\\.[^"\\\n]*+)*+)"')
_JSON_ESCAPE = re.compile(
    r"\\(?:u[dD][89abAB][0-9A-Fa-f]{2}\\u[dD][c-fC-F][0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|.)"
)


def _escaped(secret: Secret) -> str:
    """A mask as a JSON string holds it (a quoted mask's quotes escaped)."""
    return json.dumps(secret.mask, ensure_ascii=False)[1:-1]


def decoded_layers(text: str) -> Iterator[tuple[str, Sequence[int]]]:
    """The text percent-decoded once, twice, …, each with where its characters start in `text`
    (one more entry: where it ends); nothing for a text without an ASCII escape."""
    layer: str = text
    where: Sequence[int] = range(len(text) + 1)
    for _ in range(_PERCENT_LAYERS):
        if _PERCENT_ESCAPE.search(layer) is None:  # most texts: nothing is encoded
            return
        layer, inner = _percent_decoded(layer)
        where = [where[at] for at in inner]
        yield layer, where


_PERCENT_LAYERS = 3  # a URL inside a URL inside a form: more is no one's traffic


def _find_unencoded(text: str, prose: bool) -> list[Secret]:
    """`_find` of the text as it stands."""
    if prose and _ESCAPE.search(text):
        shown, where = _unescaped(text)
        return [
            replace(secret, start=where[secret.start], end=where[secret.end - 1] + 1)
            for secret in _find_as_shown(shown, prose)
        ]
    return _find_as_shown(text, prose)


def _find_as_shown(text: str, prose: bool) -> list[Secret]:
    """`_find` in a text whose escapes, if it is prose, were taken out."""
    if not prose or not _PROSE_BREAK.search(text):
        return _found_in(text, prose, _FINDERS)
    found = _found_in(text, prose, _WHOLE_TEXT_FINDERS)
    start = 0
    for brk in [*_PROSE_BREAK.finditer(text), None]:
        end = len(text) if brk is None else brk.start()
        found += [
            replace(secret, start=secret.start + start, end=secret.end + start)
            for secret in _found_in(text[start:end], prose, _LINE_FINDERS)
        ]
        start = end if brk is None else brk.end()
    return _merged(found) if found else found


# A line break in prose: `\n`, or a `<br>` as the inline markup reads one.
_PROSE_BREAK = re.compile(rf"(?i)\\n|{LINE_BREAK_TAG.pattern}")
# A backslash escape of the inline markup (`\_`, `\*`, any ASCII punctuation), or a
# character reference, which the picture draws as its character (`ghp&lowbar;…`, `&#95;`).
_ESCAPE = re.compile(
    r"\\([!-/:-@\[-`{-~])|&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
)


def _shown(text: str) -> str:
    """Prose as it shows: its escapes taken out."""
    return _ESCAPE.sub(lambda found: found[1] or _referenced(found[0]), text)


def _unescaped(text: str) -> tuple[str, Sequence[int]]:
    """Prose as it shows, its escapes taken out, and where each of its characters stands in
    `text`."""
    return _rewritten(
        text,
        _ESCAPE,
        lambda found: (
            (found[1], found.start(1)) if found[1] else (_referenced(found[0]), found.start())
        ),
    )


def _referenced(reference: str) -> str:
    """The one character a reference stands for, or its `&` (one that names none, or more
    than one, is no token's character)."""
    import html  # here: only prose with a reference needs it

    character = html.unescape(reference)
    return character if len(character) == 1 else "&"


def _found_in(text: str, prose: bool, finders: _Finders) -> list[Secret]:
    found: list[Secret] = []
    looked: dict[Callable[[str], bool], bool] = {}  # four finders share the names' test
    for finder, may_find in finders:
        if may_find not in looked:
            looked[may_find] = may_find(text)
        if looked[may_find]:
            found += finder(text, prose)
    return _merged(found) if found else found


def find_secrets(body: str) -> list[Secret]:
    """Every value in a payload body that looks like a live secret, in text order."""
    return _find(body, prose=False)


def find_secrets_in_label(text: str) -> list[Secret]:
    """Secrets in a label, a title, a note or a participant's name.

    Labels are prose: `password: at least 12 characters` there is advice, not a credential, so
    a named value counts only when it is one credential-like word (`password: hunter2x9`).
    """
    return _find(text, prose=True)


def _masked(text: str, secrets: list[Secret]) -> str:
    out: list[str] = []
    position = 0
    for secret in secrets:
        out.append(text[position : secret.start])
        out.append(secret.mask)
        position = secret.end
    out.append(text[position:])
    return "".join(out)


def redact_body(body: str) -> str:
    """The body with every secret value replaced by `<redacted>`, everything else as written."""
    return _masked(body, find_secrets(body))


def redact_label(text: str) -> str:
    return _masked(text, find_secrets_in_label(text))


def redact_text(text: str) -> str:
    """Any text, masked as thoroughly as a body, for error messages and the source lines they
    quote; what follows a `: ` on a line is read as a label too, so the line a label or note
    was written on (`A -> B: password: hunter2x9`) is masked as the label is."""
    lines = redact_body(text).split("\n")
    for index, line in enumerate(lines):
        position = 0
        for _ in range(3):  # `note A: …`, `A -> B: …`, and one more level
            colon = line.find(": ", position)
            if colon < 0:
                break
            position = colon + 2
            line = line[:position] + redact_label(line[position:])
        lines[index] = line
    return "\n".join(lines)


def redact_source(text: str) -> str:
    """A diagram's text as a page publishes it in place of a picture, or hashes it into ids:
    masked as `redact_text` masks it, and each credential it names masked wherever it repeats
    it unnamed, as the picture masks it."""
    return repeated_in(text)(redact_text(text))


def redact_names(names: list[str], mask: Callable[[str], str] = redact_label) -> dict[str, str]:
    """Each participant name that holds a secret, and what it is shown as instead.

    Masked names stay distinct (`<redacted>`, `<redacted> 2` …), so two participants never
    become one.
    """
    renamed: dict[str, str] = {}
    taken = set(names)
    for name in names:
        masked = mask(name)
        if masked == name:
            continue
        candidate, number = masked, 1
        while candidate in taken:
            number += 1
            candidate = f"{masked} {number}"
        taken.add(candidate)
        renamed[name] = candidate
    return renamed


def holds_pasted_traffic(note: str) -> bool:
    """Whether a note holds a fence (or something like one): traffic pasted into it, read and
    masked as a body rather than as prose. Generous on purpose: reading as a body finds all
    that reading as prose finds, and more."""
    return "```" in note or "~~~" in note


def _read_as_body(text: Text) -> bool:
    return text.kind == "body" or (text.kind == "note" and holds_pasted_traffic(text.text))


class DiagramSecrets:
    """The secrets of one diagram, found once for everything that needs them: the warnings
    that point at each (`places`), the masking of each text, and of each credential where
    the diagram repeats it unnamed (`again`).

    Most diagrams hold none, and one look at all their texts at once says so
    (`_any_secret`).
    """

    def __init__(self, diagram: Diagram) -> None:
        texts = list(diagram.all_texts())
        # each text by how it is read (as a body or as prose), with the secrets it holds
        self._found: dict[tuple[str, bool], list[Secret]] = {
            (text.text, _read_as_body(text)): [] for text in texts
        }
        self._by_text: list[tuple[Text, list[Secret]]] = []  # the texts that hold any
        if not _any_secret([(text.text, _read_as_body(text)) for text in texts]):
            self.again: Callable[[str], str] = _unchanged
            return
        for text in texts:
            as_body = _read_as_body(text)
            secrets = self._found[text.text, as_body] = _find(text.text, prose=not as_body)
            if secrets:
                self._by_text.append((text, secrets))
        self.again = _repeated(self._by_text)

    def masked(self, text: str, as_body: bool) -> str:
        """The text with its secrets masked, and the diagram's credentials where it repeats
        them; a text that is not the diagram's (a name a rewrite made) is looked at now."""
        secrets = self._found.get((text, as_body))
        if secrets is None:
            secrets = _find(text, prose=not as_body)
        return self.again(_masked(text, secrets) if secrets else text)

    def __len__(self) -> int:
        """How many secrets the diagram's texts hold, the ones written as examples too: what
        redaction masks (each once, however often it is repeated)."""
        return sum(len(secrets) for _, secrets in self._by_text)

    def places(self) -> Iterator[tuple[int, int, Secret, str]]:
        """(source line, offset in that line, secret, line text) for every secret that looks
        live: not one written as an example (`abc123`), which redaction masks all the same."""
        for found, secrets in self._by_text:
            lines = found.text.split("\n")
            starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
            for secret in secrets:
                if is_example(found.text[secret.start : secret.end]):
                    continue
                index = bisect.bisect_right(starts, secret.start) - 1
                yield found.line + index, secret.start - starts[index], secret, lines[index]


def _any_secret(texts: list[tuple[str, bool]]) -> bool:
    """Whether any of these texts (each with whether it is read as a body) holds a secret.

    Each way of finding secrets looks once, at the readings its cheap test lets through,
    joined by new lines. A text's readings are those `_find` looks at: the text as written and
    as a reader sees it (`_visible`), and as each percent-decoded layer of those reads, and a
    body's JSON strings each decoded on its own (`_json_strings`); for
    prose, each of those as shown (its escapes
    taken out) with its line breaks made new lines, and, where a private key may start, whole,
    all read as a body (which finds all a label's reading finds and more). Every pattern but a
    private key block stops at a line's end, and a block stops where the next begins, so
    nothing found in the joined readings means nothing in any text. A text with an LSP
    progress message is looked at on its own: its "token" is no secret there only.
    """
    readings: list[str] = []
    for text, as_body in texts:
        if "rogress" in text:  # an LSP progress message, maybe escaped or percent-encoded
            if _find(text, prose=not as_body):
                return True
            continue
        sources = [text]
        if _hides(text, not as_body):  # as `_find` reads it: as a reader sees it too
            sources.append(_visible(text, not as_body)[0])
        versions = [
            version
            for source in sources
            for version in (
                source,
                *(layer for layer, _ in decoded_layers(source)),
            )
        ]
        if as_body:
            readings += versions
            readings += (string for source in sources for string in _strings_within(source, 3))
            continue
        for version in versions:
            shown = _shown(version)
            readings.append(_PROSE_BREAK.sub("\n", shown))
            if "-----BEGIN " in shown:  # a key block is looked for in the whole text
                readings.append(shown)
    everything = "\n".join(readings)
    let_through: dict[Callable[[str], bool], str] = {}
    for finder, may_find in _FINDERS:
        if may_find not in let_through:
            let_through[may_find] = (
                "\n".join(text for text in readings if may_find(text))
                if may_find(everything)
                else ""
            )
        if let_through[may_find] and next(finder(let_through[may_find], False), None):
            return True
    return False


def _strings_within(text: str, depth: int) -> Iterator[str]:
    """The readings of a body's JSON strings as `_find_written` reads them, each on its own."""
    for string, _ in _json_strings(text) if depth else ():
        yield string
        for layer, _ in decoded_layers(string):
            yield layer
        yield from _strings_within(string, _inner_depth(string, depth))


def _unchanged(text: str) -> str:
    return text


def _repeated(by_text: list[tuple[Text, list[Secret]]]) -> Callable[[str], str]:
    """What masks, in any text, every credential found as a secret somewhere in the diagram.

    A token that one message names (`"access_token": "…"`, `bearer="…"`) is the same secret
    where the next one carries it unnamed: in a URL's path, in prose, in a participant's
    name. Only values that look like credentials and are long enough not to be words or
    codes (a cookie's `region=eu-west-1` is masked where it is a cookie, not in every host
    name), or shorter but of a random token's mixed case and digits (a tracking cookie's
    `Lm-9qVlU`, which its URLs repeat), each matched whole, between characters that cannot
    be part of it (letters, digits, a `+`).
    """
    from urllib.parse import quote, unquote  # here: most diagrams hold no secret

    written = {
        _visible(found.text[secret.start : secret.end], prose=True)[0].strip("\"'")
        for found, secrets in by_text
        for secret in secrets
    }
    # each also as a form or a URL carries it, and as it reads decoded (found encoded)
    values = written | {quote(v, safe="") for v in written} | {unquote(v) for v in written}
    kept = [value for value in values if _may_be_repeated(value)]
    if not kept:
        return _unchanged
    # longest first, so that a value holding another is masked whole; as a reader sees it,
    # whatever unseen characters stand between its own (`_visible`)
    unseen = f"{_UNSEEN_IN_PROSE.pattern}*"
    alternatives = "|".join(
        unseen.join(map(re.escape, v)) for v in sorted(kept, key=lambda v: (-len(v), v))
    )
    # (a value may follow an escaped quote: a percent escape, `%22`, or a script's, `\x22` or
    # `\u0022`, as a page's inline JSON writes it)
    after_escape = r"(?<=%[0-9A-Fa-f]{2})|(?<=\\x[0-9A-Fa-f]{2})|(?<=\\u[0-9A-Fa-f]{4})"
    # (glued to `_` or `-` it is still the same credential: `session_<sid>`, a store's key)
    pattern = re.compile(rf"(?:(?<![^\W_]|\+)|{after_escape})(?:{alternatives})(?![^\W_]|\+)")

    longest = max(map(len, kept))

    def masked(text: str) -> str:
        text = pattern.sub(MASK, text)
        if "…" not in text and "..." not in text:
            return text
        # the start of one, cut short where a log or a note shows it (`ghp_7Yb2Kq9L…`): the
        # word before each ellipsis, as far back as a credential reaches
        out, done = [], 0
        for dots in re.compile(_ELLIPSIS).finditer(text):
            end = start = dots.start()
            while start > max(done, end - longest) and _in_a_word(text[start - 1]):
                start -= 1
            whole = start == done or not _in_a_word(text[start - 1])
            out.append(text[done:start] + _cut_short(text[start:end], kept, whole))
            done = end
        out.append(text[done:])
        return "".join(out)

    return masked


def _cut_short(word: str, kept: list[str], whole: bool) -> str:
    """The word with a credential's start masked where it ends in one (`sid=9f8e7d6c`, the part
    after `sid=`): a part that starts with a letter or digit, after the word's start (`whole`:
    the word is all there) or a separator, and looks like a credential itself, eight characters
    of letters and digits (not `sk-proj-`, a provider's prefix; not a JWT's header alone, which
    all tokens of one signing share)."""
    starts = [k + 1 for k, ch in enumerate(word) if ch in "-_=/.:"]
    for start in [0, *starts] if whole else starts:
        part = word[start:]
        if (
            credential_like(part)  # (eight characters at least: none is empty)
            and part[0].isalnum()
            and not (part.startswith("eyJ") and "." not in part)
            and any(value.startswith(part) for value in kept)
        ):
            return word[:start] + MASK
    return word


def _in_a_word(ch: str) -> bool:
    """Whether a character may be part of a credential's text (`_cut_short`)."""
    return ch.isalnum() or ch in "_+/=.:-"


def repeated_in(text: str) -> Callable[[str], str]:
    """`DiagramSecrets.again` for a text that is no diagram yet (a file that did not parse):
    what masks each credential found in it wherever an error's line or words repeat it."""
    found = find_secrets(text)
    return _repeated([(Text("body", 1, text), found)]) if found else _unchanged


# Where a text cuts a word short (a credential's first characters, `…` or `...` after them)
_ELLIPSIS = r"…|\.\.\."
_REPEATED_LENGTH = 12  # a credential this long is not a word, a date or a region's code
_REPEATED_MIXED = 8  # nor is one this long of capitals, small letters and digits
# digits past a time in microseconds since 1970 (16): an identifier, not a quantity
_LONG_NUMBER = r"-?[0-9]{17,}"
# a run as long, of letters and digits both: where a credential found elsewhere may repeat
_MAY_REPEAT = (
    rf"(?=\S*[0-9])(?=\S*[^\W\d_])\S{{{_REPEATED_LENGTH},}}"
    rf"|(?=\S*[0-9])(?=\S*[a-z])(?=\S*[A-Z])\S{{{_REPEATED_MIXED},}}"
    rf"|{_LONG_NUMBER}"
)


def _may_be_repeated(value: str) -> bool:
    """Whether a secret's value is masked wherever it repeats: a credential's shape, and long
    enough or mixed enough to be no word or code; or a number too long to be a count, a
    date or a code (a tracking cookie's `_dyid=-1378101304145867844`, which its URLs carry)."""
    if re.fullmatch(_LONG_NUMBER, value):
        return True
    if not credential_like(value):
        return False
    return len(value) >= _REPEATED_LENGTH or bool(re.compile(_PASSWORD_SHAPED).fullmatch(value))


def may_repeat_a_secret(*texts: str | None) -> bool:
    """Whether any of the texts holds a word that could be a credential found elsewhere (see
    `repeated_in`): a message that holds none needs no source searched for them."""
    return any(text and re.compile(_MAY_REPEAT).search(text) for text in texts)
