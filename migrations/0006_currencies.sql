-- 0006: ISO 4217 currencies with their minor units (decimals an amount may
-- carry).  Codes not listed are rejected by validation (rule currency.unknown).
set local role invoice_owner;

insert into ingest.currency (code, minor_unit)
select code, 0 from unnest(string_to_array(
  'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF', ' ')) as t(code)
union all
select code, 3 from unnest(string_to_array(
  'BHD IQD JOD KWD LYD OMR TND', ' ')) as t(code)
union all
select code, 4 from unnest(string_to_array('CLF UYW', ' ')) as t(code)
union all
select code, 2 from unnest(string_to_array(
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BRL BSD BTN BWP BYN BZD CAD CDF CHF CNY COP CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD UYU UZS VES WST XCD YER ZAR ZMW ZWL', ' ')) as t(code);

grant select on ingest.currency to invoice_loader, invoice_operator;
