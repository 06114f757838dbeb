-- Every embedded text's hash and text, as CSV (read into Arrow columns without a Python object a row).
COPY (SELECT hash, text FROM kgqa.embedded_texts) TO STDOUT (FORMAT csv);
