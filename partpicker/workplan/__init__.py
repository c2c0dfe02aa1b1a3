"""Workload-driven suggest: the GPU model and count that hold a workload, the cheapest build
for that count (through the suggest API), and its power plan on a wall circuit."""
