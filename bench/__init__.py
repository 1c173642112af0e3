"""Benchmarks: scripts that measure what a user does and print their figures (run from the
top of the repository as `python -m bench.<name>`; `python -m bench.smoke` runs each one's
`--smoke` mode, a few seconds each). See bench/README.md and docs/PERFORMANCE.md."""
