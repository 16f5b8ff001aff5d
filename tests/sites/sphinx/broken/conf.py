project = "volley broken diagrams"
extensions = ["myst_parser", "volley.docs.sphinx"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build"]
