#!/usr/bin/env python3
"""make-field-rules.py: write tests/corpus/field_rules.csv and its
expectations, field_rules.expected, from the cases below (the corpus is
this script's output: edit the cases, then run it from anywhere).

Each case is a good EUR invoice with some fields replaced by their raw CSV
text ('' = an unquoted empty field, q('') = a quoted empty one), the rules
it must fail (docs/reference/input-file.md; sql/ingest/failing_records.sql is the
reference), and for a passing record its canonical revision and amounts.
Business date: 2026-11-28.
"""
import os

COLUMNS = ["invoice_number", "revision", "status", "document_type",
           "customer_id", "invoice_date", "due_date", "currency",
           "net_amount", "tax_amount", "gross_amount", "description"]


def q(s):
    """A quoted CSV field."""
    return '"' + s.replace('"', '""') + '"'


GOOD = dict(invoice_number=None, revision="0", status="ISSUED",
            document_type="INVOICE", customer_id="C-001",
            invoice_date="2026-11-20", due_date="2026-12-20", currency="EUR",
            net_amount="100.00", tax_amount="19.00", gross_amount="119.00",
            description="Consulting")
OK = ("0", "100.00", "19.00", "119.00")

CASES = []


def case(rules, canonical=None, **fields):
    CASES.append((fields, rules.split(), canonical))


def good(canonical=OK, **fields):
    case("", canonical, **fields)


# --- records that pass every rule -------------------------------------
good()
good(due_date="")
good(due_date=q(""))
good(description="")
good(description=q(""))
good(due_date="", description="")
good(("0", "1000", "100", "1100"), currency="JPY", net_amount="1000",
     tax_amount="100", gross_amount="1100")
good(("0", "1.234", "0.123", "1.357"), currency="KWD", net_amount="1.234",
     tax_amount="0.123", gross_amount="1.357")
good(("0", "5.000", "0.000", "5.000"), currency="KWD", net_amount="5",
     tax_amount="0", gross_amount="5")
good(("0", "1.500", "0.250", "1.750"), currency="KWD", net_amount="1.5",
     tax_amount="0.25", gross_amount="1.75")
good(("0", "5.00", "0.00", "5.00"), net_amount="5", tax_amount="0",
     gross_amount="5")
good(("0", "12.50", "2.50", "15.00"), net_amount="12.5", tax_amount="2.5",
     gross_amount="15")
good(("0", "7.50", "0.00", "7.50"), net_amount="007.50", tax_amount="0.00",
     gross_amount="7.5")
good(("0", "1.10", "0.10", "1.20"), net_amount="1.1", tax_amount="0.10",
     gross_amount="1.20")
good(("0", "0.00", "0.00", "0.00"), net_amount="-0.0", tax_amount="0",
     gross_amount="-0.00")
good(("0", "100.00", "-10.00", "90.00"), tax_amount="-10.00",
     gross_amount="90")
good(("0", "-5.00", "10.00", "5.00"), net_amount="-5", tax_amount="10",
     gross_amount="5.00")
good(("7",) + OK[1:], revision="007")
good(("0",) + OK[1:], revision="000000000")
good(("999999999",) + OK[1:], revision="999999999")
good(("1",) + OK[1:], revision="000000001")
good(("12",) + OK[1:], revision="12")
good(status="VOID")
good(("0", "-100.00", "-19.00", "-119.00"), document_type="CREDIT_NOTE",
     net_amount="-100.00", tax_amount="-19.00", gross_amount="-119.00")
good(("0", "0.00", "0.00", "0.00"), document_type="CREDIT_NOTE",
     net_amount="-0.00", tax_amount="0.00", gross_amount="0.00")
good(("0", "0.00", "0.00", "0.00"), document_type="CREDIT_NOTE",
     net_amount="0", tax_amount="0", gross_amount="-0.00")
good(("0", "-5.00", "0.00", "-5.00"), status="VOID",
     document_type="CREDIT_NOTE", net_amount="-5", tax_amount="0",
     gross_amount="-5")
good(invoice_number="A" * 64)
good(invoice_number="inv.2026/11_28-x")
good(invoice_number=q("QUOTED-1"))
good(invoice_number="0")
good(invoice_date="2026-11-28")
good(invoice_date="2026-11-28", due_date="2026-11-28")
good(invoice_date="2024-02-29", due_date="2024-03-01")
good(invoice_date="2000-02-29", due_date="2000-02-29")
good(invoice_date="0001-01-01", due_date="0001-01-02")
good(invoice_date="1999-12-31", due_date="9999-12-31")
good(invoice_date="2026-01-31", due_date="2026-04-30")
good(invoice_date="2026-11-01", due_date="2027-02-28")
good(("0", "999999999999999998.00", "1.00", "999999999999999999.00"),
     net_amount="999999999999999998", tax_amount="1",
     gross_amount="999999999999999999.00")
good(("0", "-999999999999999999.00", "0.00", "-999999999999999999.00"),
     document_type="CREDIT_NOTE", net_amount="-999999999999999999",
     tax_amount="0", gross_amount="-999999999999999999")
good(("0", "1234", "0", "1234"), currency="JPY", net_amount="1234",
     tax_amount="0", gross_amount="001234")
good(("0", "1.2345", "0.0000", "1.2345"), currency="CLF",
     net_amount="1.2345", tax_amount="0", gross_amount="1.2345")
good(customer_id=" ")
good(customer_id=q("Müller & Söhne, GmbH"))
good(customer_id="客户-42")
good(description=q("line one\nline two"))
good(description=q("crlf\r\ninside"))
good(description=q("a\ttab inside quotes"))
good(description="a\ttab unquoted")
good(description="back\\slash and \\N and \\t")
good(description=q('she said ""hello"", twice'))
good(description=q(","))
good(description=q('"'))
good(description="\\N")
good(description="\\")
good(description=q("\\.\nnot the end"))
good(description="Zürich € 😀 ١٢٣")
good(description=q("  padded  "))
good(description="x" * 300)
good(invoice_number=q("ALL-QUOTED"), revision=q("3"), status=q("ISSUED"),
     document_type=q("INVOICE"), customer_id=q("C-9"),
     invoice_date=q("2026-11-01"), due_date=q("2026-11-30"),
     currency=q("EUR"), net_amount=q("1.00"), tax_amount=q("0.19"),
     gross_amount=q("1.19"), description=q("every field quoted"),
     canonical=("3", "1.00", "0.19", "1.19"))

# --- one rule at a time ------------------------------------------------
case("invoice_number.missing", invoice_number="")
case("invoice_number.missing", invoice_number=q(""))
case("invoice_number.format", invoice_number="A" * 65)
case("invoice_number.format", invoice_number="INV 1")
case("invoice_number.format", invoice_number="INV#1")
case("invoice_number.format", invoice_number="INVé")
case("invoice_number.format", invoice_number="INV-1 ")
case("invoice_number.format", invoice_number=q("INV,1"))
case("invoice_number.format", invoice_number=q("INV\n1"))
case("revision.missing", revision="")
case("revision.missing", revision=q(""))
case("revision.format", revision="1234567890")
case("revision.format", revision="0000000001")
case("revision.format", revision="-1")
case("revision.format", revision="1.0")
case("revision.format", revision=" 1")
case("revision.format", revision="+1")
case("revision.format", revision="1e3")
case("revision.format", revision="٣")
case("status.missing", status="")
case("status.missing", status=q(""))
case("status.value", status="issued")
case("status.value", status="ISSUED ")
case("status.value", status="CANCELLED")
case("document_type.missing", document_type="")
case("document_type.missing", document_type=q(""))
case("document_type.value", document_type="invoice")
case("document_type.value", document_type="CREDIT-NOTE")
case("customer_id.missing", customer_id="")
case("customer_id.missing", customer_id=q(""))
case("invoice_date.missing", invoice_date="", due_date="")
case("invoice_date.missing", invoice_date=q(""))
case("invoice_date.format", invoice_date="2023-02-29")
case("invoice_date.format", invoice_date="2100-02-29")
case("invoice_date.format", invoice_date="2026-13-01")
case("invoice_date.format", invoice_date="2026-00-10")
case("invoice_date.format", invoice_date="2026-04-31")
case("invoice_date.format", invoice_date="2026-11-00")
case("invoice_date.format", invoice_date="0000-01-01")
case("invoice_date.format", invoice_date="2026-1-05")
case("invoice_date.format", invoice_date="26-11-28")
case("invoice_date.format", invoice_date="today")
case("invoice_date.format", invoice_date="2026/11/20")
case("invoice_date.format", invoice_date="2026-11-20 ")
case("invoice_date.format", invoice_date="20261120")
case("invoice_date.format", invoice_date="+2026-11-20")
case("invoice_date.after_business_date", invoice_date="2026-11-29",
     due_date="")
case("invoice_date.after_business_date", invoice_date="9999-12-31",
     due_date="9999-12-31")
case("due_date.format", due_date="2026-02-30")
case("due_date.format", due_date="soon")
case("due_date.format", due_date=" ")
case("due_date.before_invoice_date", due_date="2026-11-19")
case("due_date.before_invoice_date", invoice_date="2026-01-01",
     due_date="2025-12-31")
case("currency.missing", currency="")
case("currency.missing", currency=q(""))
case("currency.unknown", currency="XXX")
case("currency.unknown", currency="eur")
case("currency.unknown", currency="EURO")
case("currency.unknown", currency="EUR ")
case("net_amount.missing", net_amount="", gross_amount="119.00")
case("net_amount.missing", net_amount=q(""))
case("tax_amount.missing", tax_amount="")
case("gross_amount.missing", gross_amount="")
case("gross_amount.missing", gross_amount=q(""))
case("net_amount.format", net_amount="1e3")
case("net_amount.format", net_amount="NaN")
case("net_amount.format", net_amount="+100.00")
case("net_amount.format", net_amount="100.")
case("net_amount.format", net_amount=".5")
case("net_amount.format", net_amount=q("1,000.00"))
case("net_amount.format", net_amount=" 100.00")
case("net_amount.format", net_amount="--100.00")
case("net_amount.format", net_amount="1234567890123456789")
case("net_amount.format", net_amount="Infinity")
case("tax_amount.format", tax_amount="0x13")
case("tax_amount.format", tax_amount=q("19,00"))
case("tax_amount.format", tax_amount="١٩")
case("gross_amount.format", gross_amount="-")
case("gross_amount.format", gross_amount="119.00.00")
case("gross_amount.format", gross_amount="-0000000000000000000")
case("net_amount.precision amounts.sum", net_amount="100.005")
case("net_amount.precision tax_amount.precision", net_amount="100.005",
     tax_amount="18.995")
case("tax_amount.precision", tax_amount="19.000")
case("net_amount.precision tax_amount.precision", net_amount="99.999",
     tax_amount="19.001", gross_amount="119.00")
case("gross_amount.precision", net_amount="100.00", tax_amount="19.00",
     gross_amount="119.000")
case("net_amount.precision tax_amount.precision gross_amount.precision",
     currency="JPY", net_amount="10.5", tax_amount="0.5", gross_amount="11.0")
# trailing zeros are decimals too
case("net_amount.precision", currency="KWD", net_amount="1.2340",
     tax_amount="0.000", gross_amount="1.234")
case("net_amount.precision gross_amount.precision", currency="KWD",
     net_amount="1.2345", tax_amount="0.001", gross_amount="1.2355")
case("amounts.sum", gross_amount="119.01")
case("amounts.sum", net_amount="1.1", tax_amount="0.1", gross_amount="1.3")
case("amounts.sum", currency="JPY", net_amount="100", tax_amount="19",
     gross_amount="118")
case("amounts.sum", net_amount="999999999999999999", tax_amount="1",
     gross_amount="0")
case("gross_amount.sign", net_amount="-1.00", tax_amount="0",
     gross_amount="-1.00")
case("gross_amount.sign", document_type="CREDIT_NOTE")
case("gross_amount.sign", document_type="CREDIT_NOTE", net_amount="0.01",
     tax_amount="0", gross_amount="0.01")

# --- rules that depend on others ---------------------------------------
# precision needs a known currency; the sum does not
case("currency.unknown", currency="XXX", net_amount="100.005",
     tax_amount="18.995")
case("currency.missing amounts.sum", currency="", gross_amount="1")
case("currency.unknown amounts.sum", currency="ABC", gross_amount="119.001")
# the sum needs all three amounts readable
case("gross_amount.format", gross_amount="abc")
case("net_amount.missing", net_amount="")
# the sign needs a valid document type and a readable gross
case("document_type.value", document_type="RECEIPT", net_amount="-1",
     tax_amount="0", gross_amount="-1")
case("document_type.missing", document_type="", net_amount="-1",
     tax_amount="0", gross_amount="-1")
case("gross_amount.format", net_amount="-1", tax_amount="0",
     gross_amount="-1e0")
case("gross_amount.precision gross_amount.sign amounts.sum",
     net_amount="-1.00", tax_amount="0", gross_amount="-1.005")
# due date before an unreadable invoice date: only the invoice date fails
case("invoice_date.format", invoice_date="2026-11-31", due_date="2020-01-01")
case("invoice_date.missing", invoice_date="", due_date="2020-01-01")
case("invoice_date.after_business_date due_date.before_invoice_date",
     invoice_date="2026-12-01", due_date="2026-11-30")
case("invoice_date.format due_date.format", invoice_date="x", due_date="y")

# --- several rules in one record ---------------------------------------
case("invoice_number.missing revision.missing status.missing "
     "document_type.missing customer_id.missing invoice_date.missing "
     "currency.missing net_amount.missing tax_amount.missing "
     "gross_amount.missing",
     invoice_number="", revision="", status="", document_type="",
     customer_id="", invoice_date="", due_date="", currency="",
     net_amount="", tax_amount="", gross_amount="", description="")
case("invoice_number.missing revision.missing status.missing "
     "document_type.missing customer_id.missing invoice_date.missing "
     "currency.missing net_amount.missing tax_amount.missing "
     "gross_amount.missing",
     invoice_number=q(""), revision=q(""), status=q(""),
     document_type=q(""), customer_id=q(""), invoice_date=q(""),
     due_date=q(""), currency=q(""), net_amount=q(""), tax_amount=q(""),
     gross_amount=q(""), description=q(""))
case("invoice_number.format revision.format status.value "
     "document_type.value invoice_date.format due_date.format "
     "currency.unknown net_amount.format tax_amount.format "
     "gross_amount.format",
     invoice_number="bad number", revision="r1", status="OPEN",
     document_type="BILL", invoice_date="yesterday", due_date="later",
     currency="???", net_amount="ten", tax_amount="one", gross_amount="eleven",
     description=q("everything\twrong\\"))
case("revision.format status.value amounts.sum gross_amount.sign",
     revision="-3", status="Void", net_amount="-1", tax_amount="-1",
     gross_amount="-3")
case("invoice_number.format invoice_date.after_business_date "
     "net_amount.precision tax_amount.precision gross_amount.precision "
     "amounts.sum",
     invoice_number="A" * 65, invoice_date="2027-01-01", due_date="",
     net_amount="0.001", tax_amount="0.001", gross_amount="0.003")
case("customer_id.missing due_date.before_invoice_date currency.unknown",
     customer_id="", due_date="2026-11-01", currency="EUr",
     description=q("multi\nline\r\nreject"))
case("status.missing document_type.value gross_amount.precision",
     status=q(""), document_type="CREDIT_NOTE ", currency="JPY",
     net_amount="1", tax_amount="0", gross_amount="1.0")
case("revision.missing net_amount.format tax_amount.missing",
     revision="", net_amount="1.2.3", tax_amount="",
     description="Grüße\\tnot a tab")


def record(k, fields):
    values = dict(GOOD)
    values["invoice_number"] = "CORPUS-%03d" % k
    values.update(fields)
    return ",".join(values[c] for c in COLUMNS)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "field_rules.csv"), "w", newline="",
              encoding="utf-8") as out:
        out.write(",".join(COLUMNS) + "\n")
        for k, (fields, _, _) in enumerate(CASES, 1):
            out.write(record(k, fields) + "\n")
    with open(os.path.join(here, "field_rules.expected"), "w",
              encoding="utf-8") as out:
        out.write("# record_no|failed rules|revision net tax gross "
                  "(passing records): make-field-rules.py\n")
        for k, (_, rules, canonical) in enumerate(CASES, 1):
            out.write("%d|%s|%s\n" % (k, " ".join(sorted(rules)),
                                      " ".join(canonical or ())))
    print("%d records" % len(CASES))


main()
