"""european.py PLAIN.csv OUT.csv.gz: the records of a file in the
contract's format, written as a European ERP would (the format
bench/formats/european.json declares): semicolons, windows-1252, German
header names and codes, amounts 1.234,56, dates DD.MM.YYYY, gzip."""

import csv
import gzip
import sys

HEADER = ["Rechnungsnummer", "Revision", "Status", "Art", "Kunde",
          "Rechnungsdatum", "Fällig", "Währung", "Netto", "Steuer", "Brutto",
          "Beschreibung"]
STATUS = {"ISSUED": "offen", "VOID": "storniert"}
KIND = {"INVOICE": "Rechnung", "CREDIT_NOTE": "Gutschrift"}


def amount(text):
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, _, fraction = digits.partition(".")
    groups = []
    while len(whole) > 3:
        groups.insert(0, whole[-3:])
        whole = whole[:-3]
    groups.insert(0, whole)
    return sign + ".".join(groups) + ("," + fraction if fraction else "")


def date(text):
    return f"{text[8:10]}.{text[5:7]}.{text[0:4]}" if text else ""


def main(src, dst):
    with open(src, newline="", encoding="utf-8") as f, \
            gzip.open(dst, "wt", encoding="cp1252", newline="",
                      compresslevel=6) as out:
        rows = csv.reader(f)
        next(rows)
        w = csv.writer(out, delimiter=";", lineterminator="\r\n")
        w.writerow(HEADER)
        for r in rows:
            w.writerow([r[0], r[1], STATUS.get(r[2], r[2]),
                        KIND.get(r[3], r[3]), r[4], date(r[5]), date(r[6]),
                        r[7], amount(r[8]), amount(r[9]), amount(r[10]),
                        r[11]])


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
