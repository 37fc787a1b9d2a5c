"""The 16 project cards (R-34): eight Small (S1-S8) and eight Large (L1-L8).

Cost is also the value added to Approved Public Spending; the kickback goes to the
Corruption Fund when a Corrupt Politician sat on the successful committee.
"""

from __future__ import annotations

from typing import NamedTuple


class ProjectCard(NamedTuple):
    id: str
    name: str
    cost: int
    kickback: int
    committee: int

    def __str__(self) -> str:
        return f"{self.id} {self.name}"


CARDS: dict[str, ProjectCard] = {
    card.id: card
    for card in (
        ProjectCard("S1", "Barangay Road Repair", 2, 1, 1),
        ProjectCard("S2", "Public School Supplies", 2, 1, 3),
        ProjectCard("S3", "Community Health Center", 3, 1, 3),
        ProjectCard("S4", "Street Lighting Project", 2, 2, 1),
        ProjectCard("S5", "Water System Upgrade", 3, 2, 3),
        ProjectCard("S6", "Daycare Center Construction", 3, 1, 1),
        ProjectCard("S7", "Flood Control Drainage", 2, 2, 3),
        ProjectCard("S8", "Public Market Renovation", 3, 2, 3),
        ProjectCard("L1", "National Highway Extension", 5, 4, 7),
        ProjectCard("L2", "Provincial Hospital Expansion", 4, 3, 5),
        ProjectCard("L3", "Mass Transit System", 6, 5, 7),
        ProjectCard("L4", "Public University Campus", 5, 3, 5),
        ProjectCard("L5", "Irrigation Dam Project", 4, 3, 5),
        ProjectCard("L6", "Airport Terminal Upgrade", 6, 5, 7),
        ProjectCard("L7", "Seaport Modernization", 5, 4, 7),
        ProjectCard("L8", "Disaster Relief Housing", 4, 3, 5),
    )
}

SMALL_DECK: tuple[str, ...] = tuple(f"S{i}" for i in range(1, 9))
LARGE_DECK: tuple[str, ...] = tuple(f"L{i}" for i in range(1, 9))
