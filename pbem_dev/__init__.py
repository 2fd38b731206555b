"""Developer tools beside the product, installed with it (pyproject's
packages): the benchmarks (:mod:`pbem_dev.bench`, ``pbem bench ...``) and
the page tour in a browser (:mod:`pbem_dev.tour_browser`, ``pbem dev
screenshots`` and the chromium tests). The service and the pages never
import them; only the ``pbem`` command adds their command groups."""
