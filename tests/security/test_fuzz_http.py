"""The HTTP API fuzzed from its own OpenAPI description (issue #6): schemathesis reads
``GET /api/openapi.json`` as the server's application serves it (in process) and sends it
generated requests, valid and invalid, two in three aimed at a real room (one in its
lobby, with its host token, and one whose game is over).

Every answer must be a status the description documents for that operation, with the
documented JSON body (for a refusal: ``{"error": {"code", "message"}}``); never a 500, and
the server stays up.

Examples per operation and mode (50 in CI):
``KORAPSYON_FUZZ_EXAMPLES=500 pytest tests/security/test_fuzz_http.py``.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import msgspec
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from korapsyon.server.api import OPERATIONS, openapi
from korapsyon.server.connection import Limits
from tests.security.attack import attacked, wait_finished
from tests.server.inprocess import Local
from tests.server.live import add_bots, start

# The server runs in a thread of this process (the test client's event loop): if anything
# there drew from the global `random` while hypothesis draws an example, hypothesis would
# take it for a strategy using `random` and fail the test as flaky. Neither the strategies
# nor the server use it.
pytestmark = pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")

EXAMPLES = int(os.environ.get("KORAPSYON_FUZZ_EXAMPLES", "50"))
# Fuzzing is not throttled: the per-address limits are tested in test_abuse_limits.
UNLIMITED = Limits(requests=0, rooms=0, sockets=0, connects=0)


@pytest.fixture(scope="module")
def live() -> Iterator[Local]:
    with attacked(limits=UNLIMITED) as server:
        yield server


@pytest.fixture(scope="module")
def rooms(live: Local) -> list[dict[str, str]]:
    """Real targets: a room in its lobby, and one whose game is over (its record)."""
    targets = []
    with live.http() as http:
        created = http.post("/api/rooms", json={"settings": {"timers": False}}).json()
        for name in ("Ana", "Ben", "Cris"):
            http.post(f"/api/rooms/{created['code']}/seats", json={"name": name})
        targets.append({"code": created["code"], "host": created["host_token"]})
        settings = {"timers": True, "durations": {"discussion": 0.1}, "bot_delay": [0.0, 0.0]}
        over = http.post("/api/rooms", json={"settings": settings}).json()
        targets.append({"code": over["code"], "host": over["host_token"]})
    add_bots(live, over["code"], over["host_token"], 9)
    start(live, over["code"], over["host_token"])
    wait_finished(live, over["code"], over["host_token"])
    return targets


@pytest.fixture(scope="module")
def api(live: Local) -> Any:
    """The description as the server serves it, loaded by schemathesis."""
    with live.http() as http:
        return schemathesis.openapi.from_dict(http.get("/api/openapi.json").json())


def call(live: Local, case: Any) -> tuple[httpx.Response, dict[str, Any]]:
    """Send a generated request to the application: (its answer, how it was sent)."""
    sent = case.as_transport_kwargs(base_url=live.url)
    request = dict(sent)
    if isinstance(request.get("data"), bytes | str):  # a body as it is, perhaps not JSON
        request["content"] = request.pop("data")
    cookies = request.pop("cookies", None)  # (the API takes none; a header, per request)
    if cookies:
        cookie = "; ".join(f"{name}={value}" for name, value in cookies.items())
        request["headers"] = {**request["headers"], "cookie": cookie}
    with live.http() as http:
        return http.request(**request), sent


CASES = [
    pytest.param(f"{op.method} {op.path}", mode, id=f"{op.method} {op.path} {mode.value}")
    for op in OPERATIONS
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode is GenerationMode.POSITIVE or op.body is not None or "{" in op.path
]  # (an operation with no parameter and no body has nothing to break)


@pytest.mark.parametrize(("label", "mode"), CASES)
def test_every_answer_is_documented_and_never_a_500(
    api: Any, live: Local, rooms: list[dict[str, str]], label: str, mode: GenerationMode
) -> None:
    """Requests generated for one operation: valid ones (POSITIVE) and ones that break its
    schema (NEGATIVE, which must be refused with a 4xx)."""
    operation = api.find_operation_by_label(label)
    assert operation is not None, label
    statuses: Counter[int] = Counter()

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(operation.as_strategy(generation_mode=mode))
    def fuzz(case: Any) -> None:
        params = case.path_parameters or {}
        aim = len(str(params.get("code", ""))) % 3
        if "code" in params and aim < len(rooms):  # two in three: a real room
            room = rooms[aim]
            params["code"] = room["code"]
            case.headers = {**(case.headers or {}), "authorization": f"Bearer {room['host']}"}
        response, sent = call(live, case)
        case.validate_response(
            response,
            # a made-up room is a documented 404; the host token is checked in
            # test_the_host_s_requests_need_the_host_token (schemathesis takes ours for
            # one it made up)
            excluded_checks=[positive_data_acceptance, ignored_auth],
            headers=sent["headers"],
            transport_kwargs=sent,
        )
        statuses[response.status_code] += 1
        assert response.status_code < 500, response.text
        if response.status_code >= 400:
            error = response.json()["error"]
            assert isinstance(error["code"], str) and error["code"]
            assert isinstance(error["message"], str) and error["message"]

    fuzz()
    print(f"{label} {mode.value}: {sorted(statuses.items())}")  # shown with -s
    with live.http() as http:
        assert http.get("/healthz").json()["ok"] is True


def test_the_served_description_is_the_code_s_own(live: Local) -> None:
    """One description: the one generated from the types, and every route is in it."""
    with live.http() as http:
        served = http.get("/api/openapi.json").json()
    assert served == json.loads(msgspec.json.encode(openapi()))
    documented = {(m.upper(), path) for path, ops in served["paths"].items() for m in ops}
    assert documented == {(op.method, op.path) for op in OPERATIONS}


def test_unknown_paths_and_methods_are_json_errors(live: Local) -> None:
    with live.http() as http:
        missing = http.get("/api/nothing/here")
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
        wrong = http.patch("/api/rooms")
        assert wrong.status_code == 405
        assert wrong.json()["error"]["code"] == "method_not_allowed"
        assert "POST" in wrong.headers["allow"]


def test_the_host_s_requests_need_the_host_token(live: Local) -> None:
    """Every operation the description marks with the host's security scheme is refused
    (403 ``not_host``) with no token, another room's token or a seat's token, and changes
    nothing."""
    with live.http() as http:
        code = http.post("/api/rooms", json={}).json()["code"]
        other = http.post("/api/rooms", json={}).json()["host_token"]
        seat = http.post(f"/api/rooms/{code}/seats", json={"name": "Intruder"}).json()["token"]
        before = http.get(f"/api/rooms/{code}").json()
        for op in OPERATIONS:
            if not op.host:
                continue
            path = op.path.replace("{code}", code).replace("{seat}", "0")
            for header in ({}, {"authorization": f"Bearer {other}"}, {"authorization": seat}):
                answer = http.request(op.method, path, json={}, headers=header)
                assert answer.status_code == 403, (op.path, answer.text)
                assert answer.json()["error"]["code"] == "not_host"
        assert http.get(f"/api/rooms/{code}").json() == before
