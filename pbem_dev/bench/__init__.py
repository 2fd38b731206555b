"""The benchmarks, one module an idea: ``pbem bench`` (:mod:`pbem_dev.bench.cli`)
and the scripts run with ``python -m pbem_dev.bench.<name>``. Figures go
into docs/performance.md."""
