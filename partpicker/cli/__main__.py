"""`python -m partpicker.cli`: the command."""

from partpicker.cli import main

main()
