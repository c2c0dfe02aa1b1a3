"""case-form-factor: the case takes the motherboard's form factor (vocab.CASE_TAKES, from the standards)."""

from partpicker import vocab
from partpicker.rules.checks import Context, Outcome, check, verdict


@check("case-form-factor")
def run(ctx: Context) -> Outcome:
    case, board = ctx.part("case"), ctx.part("motherboard")
    listed = vocab.unique(case.form_factors)
    taken = vocab.boards_taken(case.form_factors)
    implied = [ff for ff in taken if ff not in listed]
    return verdict(
        board.form_factor in taken,
        board_ff=board.form_factor,
        case_ffs=", ".join(listed),
        taken=", ".join(taken),
        by=f" (as a case for {', '.join(listed)}, by the standards)" if board.form_factor in implied else "",
    )
