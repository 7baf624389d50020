#!/usr/bin/python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Reads what `ttygroupctl metrics` printed with a real parser of the
OpenMetrics text format (prometheus_client's, Debian's
python3-prometheus-client) and checks the families ttygroup promises.

Usage: openmetrics-check.py [--expect-groups N] [--min-groups N]
                            [--effective 0|1] [--sample] (PATH... | --run CMD [ARG...])
PATH: a file, or a directory whose *.prom files are checked (at least one;
tools/vm's "# vm-host-check:" gives the files a test left in the VM).
--sample: the input is test-metrics --print-sample; its odd label values
must come back exactly. Exit status 0 when every check holds."""
import glob
import os
import subprocess
import sys

try:
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
except ImportError:
    sys.exit("openmetrics-check: python3-prometheus-client is missing (tools/setup-host installs it)")

GROUP_LABELS = {"unit", "kind", "session", "uid"}
FAMILIES = {
    "ttygroup_group_cpu_usage_seconds": ("counter", True),
    "ttygroup_group_cpu_pressure_some_seconds": ("counter", True),
    "ttygroup_group_cpu_pressure_full_seconds": ("counter", True),
    "ttygroup_group_weight": ("gauge", True),
    "ttygroup_groups": ("gauge", False),
    "ttygroup_process_events": ("counter", False),
    "ttygroup_lost_events": ("counter", False),
    "ttygroup_placements": ("counter", False),
    "ttygroup_placement_failures": ("counter", False),
    "ttygroup_effective": ("gauge", False),
    "ttygroup_limitations": ("gauge", False),
}
SAMPLE_UNITS = {"session-2.scope", "ttygroup-pty-2-812.scope", 'odd\\unit"with\nall.scope', "session-9.scope"}


def fail(msg):
    sys.exit("openmetrics-check: " + msg)


def check(text, where, opts):
    if not text.endswith("# EOF\n"):
        fail(f"{where}: does not end with '# EOF'")
    try:
        families = {f.name: f for f in text_string_to_metric_families(text)}
    except ValueError as e:
        fail(f"{where}: the parser refused it: {e}")
    for name, (mtype, per_group) in FAMILIES.items():
        f = families.get(name)
        if f is None:
            fail(f"{where}: no family {name}")
        if f.type != mtype:
            fail(f"{where}: {name} is a {f.type}, not a {mtype}")
        if name.endswith("_seconds") and f.unit != "seconds":
            fail(f"{where}: {name} has unit '{f.unit}', not seconds")
        if not f.documentation:
            fail(f"{where}: {name} has no HELP")
        for s in f.samples:
            if mtype == "counter" and not s.name.endswith("_total"):
                fail(f"{where}: counter sample {s.name} does not end in _total")
            if per_group and set(s.labels) != GROUP_LABELS:
                fail(f"{where}: {s.name} has labels {sorted(s.labels)}, not {sorted(GROUP_LABELS)}")
            if per_group and s.labels["kind"] not in ("session", "terminal"):
                fail(f"{where}: {s.name} of kind {s.labels['kind']!r}")
            if s.value < 0:
                fail(f"{where}: {s.name} {s.labels} is negative")
    extra = set(families) - set(FAMILIES)
    if extra:
        fail(f"{where}: families not documented here: {sorted(extra)}")
    units = {s.labels["unit"] for s in families["ttygroup_group_weight"].samples}
    counted = sum(s.value for s in families["ttygroup_groups"].samples)
    if counted != len(units):
        fail(f"{where}: ttygroup_groups says {counted}, the weights name {len(units)} groups")
    if opts["expect"] is not None and len(units) != opts["expect"]:
        fail(f"{where}: {len(units)} groups, expected {opts['expect']}")
    if len(units) < opts["min"]:
        fail(f"{where}: {len(units)} groups, expected at least {opts['min']}")
    effective = families["ttygroup_effective"].samples[0].value
    if opts["effective"] is not None and effective != opts["effective"]:
        fail(f"{where}: ttygroup_effective is {effective}, expected {opts['effective']}")
    if opts["sample"] and units != SAMPLE_UNITS:
        fail(f"{where}: the units came back as {sorted(units)}, not {sorted(SAMPLE_UNITS)}")
    samples = sum(len(f.samples) for f in families.values())
    print(f"openmetrics-check: {where}: {len(families)} families, {samples} samples, "
          f"{len(units)} groups, effective {int(effective)}: parsed and checked")


def main(argv):
    opts = {"expect": None, "min": 0, "effective": None, "sample": False}
    files, run = [], None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--run":
            run = argv[i + 1:]
            break
        if a in ("--expect-groups", "--min-groups", "--effective"):
            if i + 1 >= len(argv):
                fail(f"{a} needs a value")
            key = {"--expect-groups": "expect", "--min-groups": "min", "--effective": "effective"}[a]
            opts[key] = int(argv[i + 1])
            i += 2
            continue
        if a == "--sample":
            opts["sample"] = True
        elif a.startswith("-"):
            fail(f"unknown option {a}")
        else:
            files.append(a)
        i += 1
    if run:
        out = subprocess.run(run, check=True, stdout=subprocess.PIPE).stdout.decode("utf-8")
        check(out, " ".join(run[:1]), opts)
    elif files:
        paths = []
        for f in files:
            if os.path.isdir(f):
                found = sorted(glob.glob(os.path.join(f, "**", "*.prom"), recursive=True))
                if not found:
                    fail(f"{f}: no *.prom file in it")
                paths += found
            else:
                paths.append(f)
        for f in paths:
            with open(f, encoding="utf-8") as fh:
                check(fh.read(), f, opts)
    else:
        fail("nothing to check: FILE... or --run CMD")


if __name__ == "__main__":
    main(sys.argv[1:])
