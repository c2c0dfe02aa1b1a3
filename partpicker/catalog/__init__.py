"""Parts catalogs: loading, name resolution, checks and diffs."""

from partpicker.catalog.load import Catalog, Origin, Problem, catalog_files, load_catalog, read_catalog

__all__ = ["Catalog", "Origin", "Problem", "catalog_files", "load_catalog", "read_catalog"]
