"""Tests of the harnesses (the lean reference replay)."""
