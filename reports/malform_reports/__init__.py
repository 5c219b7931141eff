"""malform_reports - the nightly report (HTML, Markdown, JSON) and rule mining.

Run as `python -m malform_reports report|mine ...` with reports/ on
PYTHONPATH, or through `malform report` / `malform mine`. See reports/README.md.
"""
__version__ = "0.1.0"
