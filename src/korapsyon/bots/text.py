"""A plain-text rendering of a player view, for language-model agents (and for reading).

:func:`render` turns the JSON view of :func:`~korapsyon.rules.views.player_view` into a short
briefing: who you are, the trackers, the table, this Year's project, your private results,
the recent timeline, and the decision you must make with its legal options and the exact
JSON to answer with. It uses nothing but the view, so it cannot leak what the view hides.
"""

from __future__ import annotations

import json
from typing import Any

from ..rules.roles import Role

_SHOWN = {None: "nobody / abstain", True: "yes", False: "no"}


def render(view: dict[str, Any], *, timeline: int = 40) -> str:
    """The briefing for the view's player; ``timeline`` = how many recent lines to show."""
    you = view.get("you")
    lines = [*_who(you), _moment(view), _trackers(view), *_table(view["players"], you)]
    lines += _project(view["project"])
    if you is not None:
        lines += _private(you)
    lines += _recent(view["timeline"][-timeline:] if timeline > 0 else [])
    if you is not None:
        lines += _decision(you)
    return "\n".join(lines)


def _who(you: dict[str, Any] | None) -> list[str]:
    if you is None:
        return ["You are watching as a spectator."]
    lines = [
        f"You are {you['name']}, {_article(you['role_title'])} {you['role_title']} "
        f"(team {you['team']}). Goal: {you['goal']}"
    ]
    if you.get("teammates"):
        lines.append(f"Your fellow team members: {', '.join(you['teammates'])}.")
    if you["status"] != "active":
        lines.append(f"You are {you['status']}.")
    return lines


def _moment(view: dict[str, Any]) -> str:
    """The outcome, or the Year and step."""
    outcome = view["outcome"]
    if outcome is not None:
        return f"The game is over: {outcome['winner']} ({outcome['reason']})."
    return f"Year {view['year']}, step: {view['step_title']}. {view['script']}"


def _trackers(view: dict[str, Any]) -> str:
    targets = view["targets"]
    president = view["president"]
    return (
        f"Approved Public Spending {view['public_spending']}/{targets['public_spending']}; "
        f"Corruption Fund target {targets['corruption_fund']}; Kaban ng Bayan (public) "
        f"{view['kaban_public']}; Auto Jail costs {targets['auto_jail_cost']}, Tokhang "
        f"{targets['tokhang_cost']}. President: "
        + (
            f"{president['name']} (Years {president['since']}-{president['until']})."
            if president
            else "none."
        )
    )


def _table(players: list[dict[str, Any]], you: dict[str, Any] | None) -> list[str]:
    lines = ["Players:"]
    for player in players:
        notes = [player["status"]]
        if player["returns_year"]:
            notes.append(f"returns in Year {player['returns_year']}")
        if player["strikes"]:
            notes.append(f"{player['strikes']} strike(s)")
        if player["role"]:
            notes.append(f"revealed: {player['role']}")
        mark = " (you)" if you is not None and player["name"] == you["name"] else ""
        lines.append(f"  {player['name']}{mark}: {', '.join(notes)}")
    return lines


def _project(project: dict[str, Any] | None) -> list[str]:
    if project is None:
        return []
    offered = " or ".join(
        f"{c['id']} {c['name']} (cost {c['cost']}, kickback {c['kickback']}, "
        f"committee {c['committee']})"
        for c in project["offered"]
    )
    lines = [f"This Year's project offer: {offered}."]
    if project["card"]:
        lines.append(
            f"Chosen: {project['card']}; committee: {', '.join(project['committee']) or '-'}"
            + (
                f"; vote {project['result']['support']}-{project['result']['oppose']}, "
                + ("succeeded." if project["result"]["succeeded"] else "failed.")
                if project["result"]
                else "."
            )
        )
    return lines


def _recent(events: list[dict[str, Any]]) -> list[str]:
    if not events:
        return []
    return ["Recent events:"] + [
        f"  Year {e['year']}: {'(private) ' if e.get('private') else ''}{e['text']}" for e in events
    ]


def _private(you: dict[str, Any]) -> list[str]:
    lines = []
    if you.get("investigation"):
        found = you["investigation"]
        lines.append(
            f"Your investigation this Year: {found['target']} is {found['aligned']} aligned."
        )
    if you.get("audit"):
        audit = you["audit"]
        if audit["project"] is None:
            lines.append("Your audit: no project last year.")
        else:
            flag = "yes" if audit["kickback"] else "no"
            lines.append(f"Your audit: project {audit['project']}, kickback occurred: {flag}.")
    if you.get("muted"):
        lines.append("You were silenced by Suhol: you cannot speak this Year.")
    if you.get("last_protected"):
        lines.append(f"You protected {you['last_protected']} last Year: not them again.")
    choices = you.get("team_choices")
    if choices:
        shown = "; ".join(
            f"{name}: "
            + (
                "undecided"
                if c is None
                else f"nakaw {_SHOWN[c['nakaw']]}, suhol {_SHOWN[c['suhol']]}, "
                f"tokhang {c['tokhang'] or 'nobody'}"
            )
            for name, c in choices.items()
        )
        lines.append(f"Your team's choices so far: {shown}.")
    return lines


def _decision(you: dict[str, Any]) -> list[str]:
    choices = you["choices"]
    if not choices and not you.get("claims"):
        return ["Nothing to decide now: wait."]
    lines = []
    if you["submitted"] is not None:
        lines.append(f"You answered: {json.dumps(you['submitted'])}; you may still change it.")
    if not choices:  # the discussion: talking is optional
        lines.append("You may make one claim (or answer null to stay silent):")
    else:
        lines.append("Your decision now (answer with one JSON object):")
    for choice in choices + you.get("claims", []):
        fields = ", ".join(
            f'"{field}": one of [{", ".join(_value(v) for v in values)}]'
            for field, values in choice["options"].items()
        )
        pick = f", choosing {choice['pick']} different names" if choice["pick"] else ""
        lines.append(f'  {{"action": "{choice["action"]}"{", " if fields else ""}{fields}{pick}}}')
    return lines


def _value(value: Any) -> str:
    return "null" if value is None else json.dumps(value)


def _article(title: str) -> str:
    return "the" if title in _UNIQUE else "a"


_UNIQUE = {Role.LAWYER.title, Role.OMBUDSPERSON.title, Role.COA.title}
