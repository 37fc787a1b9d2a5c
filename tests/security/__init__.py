"""Tests that attack the running system: crashes, store faults, bad input, leaks."""
