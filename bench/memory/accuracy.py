#!/usr/bin/env python3
"""Per-case error table of the measured-memory suite for docs/accuracy.md.

Runs the vramcalc CLI on every case of tests/data/memory/measured_cases.json and prints a Markdown
table comparing the output that measures the same thing (peak_allocated, peak_reserved, total)
with the measured value, plus the median and maximum absolute errors. The Catch2 test
tests/test_measured_memory.cpp asserts the same comparisons; this script only writes them out.

Usage: python3 bench/memory/accuracy.py [path/to/vramcalc]   (default build-native/src/cli/vramcalc)
"""
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CLI = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, 'build-native', 'src', 'cli', 'vramcalc')
OUTPUT = {'allocated': 'peak_allocated', 'reserved': 'peak_reserved', 'device_total': 'total'}
GIB = 2 ** 30


def estimate(scenario):
    run = subprocess.run([CLI, '--config', '-', '--json'], input=json.dumps(scenario), capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit('vramcalc rejected a case: ' + run.stderr)
    return json.loads(run.stdout)['memory_per_gpu_bytes']


def main():
    data = json.load(open(os.path.join(ROOT, 'tests', 'data', 'memory', 'measured_cases.json')))
    rows = []
    for case in data['cases']:
        memory = estimate(case['scenario'])
        for key in ('measured', 'measured_secondary'):
            if key not in case:
                continue
            m = case[key]
            predicted = memory[OUTPUT[m['kind']]]
            grade = case['grade'] + ('†' if 'known_gap' in case and key == 'measured' else '')
            rows.append((grade, case['id'], m['kind'], m['bytes'], predicted,
                         (predicted - m['bytes']) / m['bytes'], memory['peak_phase'], case['source']['url']))
    print('| grade | case | measured | measured GiB | predicted GiB | error | peak phase |')
    print('|---|---|---|---:|---:|---:|---|')
    for grade, cid, kind, measured, predicted, error, phase, url in rows:
        print(f'| {grade} | [{cid}]({url}) | {kind} | {measured / GIB:.2f} | {predicted / GIB:.2f} | '
              f'{100 * error:+.1f} % | {phase} |')
    graded = [abs(r[5]) for r in rows if not r[0].startswith('C')]
    every = [abs(r[5]) for r in rows]
    print()
    print(f'Grades A and B: {len(graded)} comparisons, median |error| {100 * statistics.median(graded):.1f} %, '
          f'max {100 * max(graded):.1f} %. All grades: {len(every)} comparisons, median '
          f'{100 * statistics.median(every):.1f} %, max {100 * max(every):.1f} %. '
          f'Not evaluated: {len(data["not_evaluated"])} cases (reasons in the data file). '
          f'† a documented gap the test pins to the band the case states (`known_gap`).')


if __name__ == '__main__':
    main()
