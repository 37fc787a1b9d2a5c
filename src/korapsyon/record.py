"""Game records (format ``korapsyon-record/1``): read, validate, write, replay, summarise.

The reader is separate from the engine and strict: a record that is not valid JSON, has
the wrong shape or describes an impossible setup raises :class:`RecordError`; an action
that cannot be read stops the replay at its index like an illegal one. The summary
follows GAME_RECORD.md key for key.
"""

# Annotations evaluated, not postponed: see the note in rules/actions.py.

from collections.abc import Iterable
from os import PathLike
from typing import IO, Any, Final, Literal

import msgspec

from .rules.actions import Action, action_from_wire
from .rules.errors import IllegalActionError, KorapsyonError, MalformedError
from .rules.game import Game
from .rules.roles import Role
from .rules.ruleset import Ruleset
from .rules.steps import STEPS

FORMAT: Final = "korapsyon-record/1"


class RecordError(KorapsyonError):
    """The record as a whole is malformed (not an action in it)."""

    code = "malformed_record"


class Decks(msgspec.Struct, forbid_unknown_fields=True):
    small: list[str]
    large: list[str]


class Record(msgspec.Struct, omit_defaults=True):
    """A game record: the setup and every accepted action, in order."""

    format: Literal["korapsyon-record/1"]
    players: list[str]
    roles: list[Role] | None = None
    seed: int = 0
    ruleset: Ruleset = Ruleset()
    decks: Decks | None = None
    actions: list[Action] = []


class _LooseRecord(Record):
    """The same shape with unchecked actions, read one by one (to find which one is
    malformed, or to fill in nulls that were left out)."""

    actions: list[Any] = []


class BadAction(msgspec.Struct, frozen=True):
    """Why a replay stopped: the index of the refused action and the reason."""

    index: int
    reason: str
    code: str


_decode_record = msgspec.json.Decoder(Record).decode
_decode_loose = msgspec.json.Decoder(_LooseRecord).decode
_encode = msgspec.json.Encoder().encode


TOO_DEEP = "not a JSON game record: its JSON is nested too deeply to read"


def read_record(data: bytes | str) -> tuple[Record, BadAction | None]:
    """Parse a record. If one action cannot be read, the record holds the actions before
    it and the second value says where and why; anything else malformed raises."""
    try:
        return _decode_record(data), None
    except msgspec.ValidationError:
        pass  # maybe one action: read them one by one below
    except msgspec.DecodeError as exc:
        raise RecordError(f"not a JSON game record: {exc}") from None
    except RecursionError:
        raise RecordError(TOO_DEEP) from None
    try:
        loose = _decode_loose(data)
    except msgspec.DecodeError as exc:
        raise RecordError(f"malformed record: {exc}") from None
    except RecursionError:
        raise RecordError(TOO_DEEP) from None
    actions: list[Action] = []
    bad = None
    for index, raw in enumerate(loose.actions):
        try:
            actions.append(action_from_wire(raw))
        except MalformedError as exc:
            detail = exc.message.removeprefix("malformed action: ")
            bad = BadAction(
                index, "malformed: " + detail.replace("`$", f"`$.actions[{index}]"), exc.code
            )
            break
    setup = {name: getattr(loose, name) for name in Record.__struct_fields__ if name != "actions"}
    return Record(**setup, actions=actions), bad


def new_game(record: Record, *, keep_events: bool = True) -> Game:
    """The game at the start of a record (raises RecordError for a bad setup); with
    ``keep_events=False`` it keeps no events (:class:`~korapsyon.rules.game.Game`)."""
    decks = None if record.decks is None else (record.decks.small, record.decks.large)
    try:
        return Game(
            record.players,
            roles=record.roles,
            seed=record.seed,
            ruleset=record.ruleset,
            decks=decks,
            keep_events=keep_events,
        )
    except KorapsyonError as exc:
        raise RecordError(f"bad setup: {exc}") from None


def replay(
    record: Record, unreadable: BadAction | None = None, *, keep_events: bool = True
) -> tuple[Game, BadAction | None]:
    """Apply every action of a record; stop at the first illegal one. ``unreadable`` is
    the action :func:`read_record` could not read: if the replay gets that far, it stops
    there, naming the rule of the step that was waiting for it. ``keep_events=False``: the
    game keeps no events (enough for its state and :func:`summarize`, not its views)."""
    game = new_game(record, keep_events=keep_events)
    push = game.push
    for index, action in enumerate(record.actions):
        try:
            push(action)
        except IllegalActionError as exc:
            return game, BadAction(index, str(exc), exc.code)
    if unreadable is None:
        return game, None
    if game.outcome is not None:
        rule = game.outcome.rule
    else:
        assert game.step is not None
        rule = STEPS[game.step].rule
    return game, BadAction(unreadable.index, f"{rule} {unreadable.reason}", unreadable.code)


def record_of(game: Game) -> Record:
    """The record of a game so far. Roles and decks are written only if they were given
    at setup, so that the replay draws exactly what the game drew from its seed."""
    small, large = game.initial_decks
    return Record(
        format=FORMAT,
        players=list(game.players),
        roles=list(game.roles) if game.roles_given else None,
        seed=game.seed,
        ruleset=game.ruleset,
        decks=Decks(list(small), list(large)) if game.decks_given else None,
        actions=list(game.actions),
    )


def write_record(record: Record, *, indent: int = 1) -> bytes:
    """Serialise a record as JSON (pretty-printed unless ``indent`` is 0)."""
    data = _encode(record)
    return msgspec.json.format(data, indent=indent) if indent else data


def summarize(game: Game) -> dict[str, Any]:
    """The replay summary of GAME_RECORD.md, keys in the documented order."""
    outcome = game.outcome
    names = game.players
    president = game.president
    return {
        "status": "finished" if outcome else "in_progress",
        "winner": outcome.winner if outcome else None,
        "reason": outcome.reason if outcome else None,
        "year": game.year,
        "step": None if game.step is None else game.step.value,
        "public_spending": game.public_spending,
        "corruption_fund": game.corruption_fund,
        "kaban": game.kaban,
        "kaban_public": game.kaban_public,
        "president": None if president is None else names[president],
        "players": [
            {
                "name": name,
                "role": game.roles[seat].value,
                "strikes": game.strikes[seat],
                "status": game.status[seat],
                "returns_year": game.returns_year[seat],
            }
            for seat, name in enumerate(names)
        ],
        "years": [
            {
                "year": y.year,
                "public_spending": y.public_spending,
                "corruption_fund": y.corruption_fund,
                "kaban": y.kaban,
                "treasury_decrease": y.treasury_decrease,
                "project": y.project,
                "project_succeeded": y.project_succeeded,
                "jailed": y.jailed,
                "eliminated": y.eliminated,
            }
            for y in game.years
        ],
    }


def replay_bytes(data: bytes) -> tuple[dict[str, Any] | None, BadAction | None]:
    """Read and replay one record: (summary, None) or (None, why it stopped).

    Raises :class:`RecordError` when the record itself is malformed.
    """
    record, bad = read_record(data)
    game, stop = replay(record, bad, keep_events=False)  # (the summary is the state's)
    if stop is not None:
        return None, stop
    return summarize(game), None


def encode_json(value: object, *, indent: int = 0) -> bytes:
    data = _encode(value)
    return msgspec.json.format(data, indent=indent) if indent else data


def replay_files(paths: Iterable[str | PathLike[str]], out: IO[bytes], err: IO[str]) -> bool:
    """``korapsyon replay PATH...`` (GAME_RECORD.md): replay each record and write its
    summary to ``out`` - indented for one record, one compact line each for several; a
    record stopped by an action or malformed writes one line to ``err`` (and, among
    several, an ``illegal`` or ``error`` line to ``out``). True if any record failed."""
    paths = list(paths)
    single = len(paths) == 1
    failed = False
    for path in paths:
        try:
            with open(path, "rb") as file:
                summary, stop = replay_bytes(file.read())
        except (OSError, RecordError) as exc:
            failed = True
            message = str(exc) if isinstance(exc, RecordError) else f"cannot read: {exc}"
            err.write(f"{_shown(path)}: {_one_line(message)}\n")
            if not single:
                out.write(encode_json({"error": message}) + b"\n")
            continue
        if stop is not None:
            failed = True
            reason = _one_line(stop.reason)
            err.write(f"{_shown(path)}: illegal action at index {stop.index}: {reason}\n")
            if not single:
                illegal = {"illegal": {"index": stop.index, "reason": stop.reason}}
                out.write(encode_json(illegal) + b"\n")
            continue
        out.write(encode_json(summary, indent=2 if single else 0) + b"\n")
    out.flush()
    err.flush()
    return failed


def _shown(path: str | PathLike[str]) -> str:
    """A path as the command line shows it (normalised as :class:`pathlib.Path` does)."""
    from pathlib import Path  # only when a record fails: replay's start-up does without

    return str(Path(path))


def _one_line(text: str) -> str:
    """Control characters (a newline in a player's name...) shown escaped: one line."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)
