"""Rules: their definitions (rulebook), the constraint graph, the checks and what they compute with."""
