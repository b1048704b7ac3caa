"""The benchmark harness behind bench/run.py: common (SQL files, timed
children, tables, JSON), load (scripts/bench.sh), publish
(scripts/bench-publish.sh)."""
