"""The step recorder the interoperability scripts share: each step's value, or the failure it raised, goes into
`results`, which the script prints as one JSON object at the end for the Swift test to assert on."""

results = {}


def step(name, call):
    try:
        results[name] = {"ok": True, "value": call()}
    except Exception as error:  # every failure is reported, whatever its type
        code = getattr(error, "code", None)
        results[name] = {"ok": False, "error": f"{type(error).__name__}: {error}", "code": code}
