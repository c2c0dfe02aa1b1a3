"""`python -m partpicker`."""

from partpicker.cli import app

app()
