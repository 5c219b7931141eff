"""__main__.py - command line: `malform report|mine ...` (`python -m malform_reports report|mine ...`).

Exit codes follow the malform CLI: 0 ok, 1 the run found something that
fails (mine --check with a broken proposal), 2 usage or I/O error.
"""
import argparse
import json
import os
import sys

from . import cli


def _missing(cmd, paths):
    """Exit status 2 with the reason when a path given on the command line does not exist."""
    gone = [p for p in paths if p and not os.path.exists(p)]
    if gone:
        print(f"malform {cmd}: no such file or directory: {', '.join(gone)}", file=sys.stderr)
        return 2
    return 0


def _report(a):
    from . import report
    malform = cli.find_malform(a.malform)
    if a.malform and not malform:
        print(f"malform report: --malform {a.malform}: not an executable", file=sys.stderr)
        return 2
    if _missing("report", [a.workdir, a.history, a.regression, a.rules, a.ops, a.compare]):
        return 2
    if not os.path.isdir(a.workdir):
        print(f"malform report: {a.workdir}: not a directory (give the work dir of a fuzz or nightly run)",
              file=sys.stderr)
        return 2
    s = report.write_report(a.workdir, a.output, history_dir=a.history, rules_file=a.rules, ops_file=a.ops,
                            malform=malform, regression_dir=a.regression, mine=not a.no_mine, profile=a.profile,
                            compare_file=a.compare, pipeline=a.pipeline)
    t = s["totals"]
    print(f"report: {os.path.join(a.output, 'report.html')} ({t['campaigns']} campaign(s), "
          f"{t['signatures']} signature(s), {t['new']} new; {len(s['missing'])} missing/partial input(s))")
    return 0


def _mine(a):
    from . import mine
    malform = cli.find_malform(a.malform)
    if a.malform and not malform:
        print(f"malform mine: --malform {a.malform}: not an executable", file=sys.stderr)
        return 2
    if a.check and not malform:
        print("malform mine: --check needs the malform binary (build the default preset or pass --malform)",
              file=sys.stderr)
        return 2
    if _missing("mine", a.paths + [a.profiles_dir]):
        return 2
    m = mine.mine(a.paths, profile=a.profile, malform=malform, do_check=a.check, profiles_dir=a.profiles_dir)
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(m["yaml"])
    if a.json:
        json.dump(m, sys.stdout, indent=2, default=str)
        sys.stdout.write("\n")
    else:
        mine.print_text(m, sys.stdout)
    if a.check and any((p.get("check") or {}).get("error") for p in m["proposals"]):
        return 1
    return 0


def main(argv=None):
    ap = argparse.ArgumentParser(prog="malform", description="malform reports and rule mining "
                                 "(run as `malform report` / `malform mine`)")
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("report", help="write report.html, summary.md and summary.json for a work dir")
    r.add_argument("workdir")
    r.add_argument("-o", "--output", default="report", help="output dir (default: report)")
    r.add_argument("--history", help="dir of past summary.json files (any depth) for the trend plot")
    r.add_argument("--regression", help="regression corpus dir (default: WORKDIR/regression or WORKDIR/corpus/regression)")
    r.add_argument("--rules", help="`malform rules --json` output (default: run the malform binary)")
    r.add_argument("--ops", help="`malform ops --json` output (default: run the malform binary)")
    r.add_argument("--malform", help="path of the malform binary (default: build/default/harness/malform)")
    r.add_argument("--profile", help="profile for mining raw cases that do not name one")
    r.add_argument("--pipeline", help="only this pipeline's campaigns and signatures (core: the built-in one)")
    r.add_argument("--compare", help="`malform compare` matrix (default: WORKDIR/compare/compare.json)")
    r.add_argument("--no-mine", action="store_true", help="leave out the mining section")
    r.set_defaults(run=_report)
    m = sub.add_parser("mine", help="cluster failures into families and propose profile patches")
    m.add_argument("paths", nargs="+", metavar="WORKDIR|DIR|FILE")
    m.add_argument("--profile", help="profile of raw field cases (name or .yaml path)")
    m.add_argument("--malform", help="path of the malform binary")
    m.add_argument("--check", action="store_true", help="apply each proposal to a copy of the profiles and re-run")
    m.add_argument("--profiles-dir", default=None, help="profile files (default: core/profiles)")
    m.add_argument("-o", "--output", help="write the YAML patch proposals to this file")
    m.add_argument("--json", action="store_true", help="print the whole result as JSON")
    m.set_defaults(run=_mine)
    a = ap.parse_args(argv)
    if getattr(a, "profiles_dir", 0) is None:
        from . import mine
        a.profiles_dir = mine.PROFILES_DIR
    try:
        return a.run(a)
    except BrokenPipeError:
        return 0
    except OSError as e:
        print(f"malform {a.cmd}: {e}", file=sys.stderr)
        return 2
    except Exception as e:  # a bug of ours: one line, the traceback only on request
        if os.environ.get("MALFORM_REPORTS_DEBUG"):
            raise
        print(f"malform {a.cmd}: internal error: {type(e).__name__}: {e} "
              f"(MALFORM_REPORTS_DEBUG=1 shows the traceback)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
