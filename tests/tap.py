"""tap.py - TAP output for the Python tests: one numbering and one failure
count per process. A test script puts tests/ on sys.path and imports it:

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    import tap
"""
import sys

n = 0
failed = 0


def ok(cond, what, detail="", lines=15):
    """One test point; on failure, the first `lines` lines of detail (a string
    or a list of lines) as TAP comments. Returns cond."""
    global n, failed
    n += 1
    failed += not cond
    print(f"{'' if cond else 'not '}ok {n} - {what}")
    if not cond and detail:
        rows = detail if isinstance(detail, (list, tuple)) else str(detail).splitlines()
        for line in list(rows)[:lines]:
            print(f"# {line}")
    sys.stdout.flush()
    return cond


def skip(what, why):
    """A test point that cannot run here, and why."""
    global n
    n += 1
    print(f"ok {n} - {what} # SKIP {why}")
    sys.stdout.flush()


def skip_all(why):
    print(f"1..0 # SKIP {why}")
    sys.exit(0)


def done():
    """The plan, and the exit status the harness reads."""
    print(f"1..{n}")
    sys.exit(1 if failed else 0)
