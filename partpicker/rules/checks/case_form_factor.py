"""case-form-factor: the case takes the motherboard's form factor."""

from partpicker import vocab
from partpicker.rules.checks import Context, Outcome, check, verdict


@check("case-form-factor")
def run(ctx: Context) -> Outcome:
    case, board = ctx.part("case"), ctx.part("motherboard")
    return verdict(
        vocab.case_takes(case.form_factors, board.form_factor),
        board_ff=board.form_factor,
        case_ffs=", ".join(case.form_factors),
    )
