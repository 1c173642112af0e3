"""The one kind of refusal the rules core gives: which rule said no, and why in plain words."""


class RuleError(Exception):
    """An action the rule book does not allow, or input the bank cannot read.

    `rule` is the rule id from the rule book (P1, K1, ...) or "input" for bad input;
    `details` carries figures a page may show (shortfall, raisable...).
    """

    def __init__(self, rule: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.details = details

    def to_dict(self) -> dict:
        return {"error": self.message, "rule": self.rule, **self.details}
