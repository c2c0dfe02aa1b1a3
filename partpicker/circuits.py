"""Wall circuits a build may be plugged into: volts, amps, and the share a continuous load may use.

A training or serving box at full load for hours is a *continuous* load. What each circuit
allows it, and why:

* ``us-15a``, ``us-20a``: 120 V branch circuits. NEC 210.19(A)(1) and 210.20(A) size
  conductors and breakers at 125 % of a continuous load (three hours or more), i.e. the load
  may use 80 % of the rating: 1440 W on 15 A, 1920 W on 20 A. On a 20 A circuit one 15 A
  (NEMA 5-15) receptacle may carry 12 A (NEC Table 210.21(B)(2)): 1920 W needs a 5-20
  receptacle or the load spread over two receptacles.
* ``eu-16a``: 230 V, 16 A breaker (IEC 60364, the usual socket circuit of Germany, France and
  most of the EU). IEC 60364-4-43 sizes the breaker for the design current with no 80 %
  continuous-load factor, so partpicker uses the full 3680 W. One PSU's IEC 60320 C13/C14 inlet
  is rated 10 A (2300 W at 230 V); a Schuko socket is rated 16 A.
* ``jp-15a``: 100 V, 15 A outlets (JIS C 8303, "15 A 125 V"); Japanese appliance guidance is
  1500 W per wall outlet, on a 20 A branch breaker. No continuous derating is codified as in
  the NEC, so partpicker uses the outlet's 1500 W.
"""

from __future__ import annotations

from dataclasses import dataclass

from partpicker.errors import InputError


@dataclass(frozen=True)
class Circuit:
    """One wall circuit: its name, volts, amps, and the share of it a continuous load may use."""

    name: str
    volts: float
    amps: float
    continuous_share: float
    rule: str  # the rule or standard the share comes from, in a few words

    @property
    def rated_w(self) -> float:
        return self.volts * self.amps

    @property
    def continuous_w(self) -> float:
        """What a continuous load may draw from it, in watts."""
        return self.rated_w * self.continuous_share

    def describe(self) -> str:
        share = f", {self.continuous_share:.0%} continuous" if self.continuous_share < 1 else ""
        return f"{self.volts:g} V / {self.amps:g} A{share} = {self.continuous_w:,.0f} W ({self.rule})"


CIRCUITS: dict[str, Circuit] = {
    c.name: c
    for c in (
        Circuit("us-15a", 120, 15, 0.8, "NEC 210.19(A)(1), 210.20(A): continuous load at 80 %"),
        Circuit("us-20a", 120, 20, 0.8, "NEC 210.19(A)(1), 210.20(A): continuous load at 80 %"),
        Circuit("eu-16a", 230, 16, 1.0, "IEC 60364-4-43: breaker sized for the design current, no 80 % factor"),
        Circuit("jp-15a", 100, 15, 1.0, "JIS C 8303 15 A outlet: 1500 W per outlet"),
    )
}
DEFAULT_CIRCUIT = "us-15a"
"""The circuit the wall-circuit rule assumes when none is named (its 1440 W default)."""


def circuit(name: str) -> Circuit:
    """The circuit called ``name``; an unknown name is bad input naming the known ones."""
    found = CIRCUITS.get(name.strip().lower())
    if found is None:
        raise InputError(f"unknown circuit {name!r}", hint=f"known: {', '.join(CIRCUITS)}")
    return found
