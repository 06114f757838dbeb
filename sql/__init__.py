"""SQL views and functions shipped as package data (`kgqa_sql`)."""
