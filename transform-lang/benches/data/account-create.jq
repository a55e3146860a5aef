# The account-create template of account-create.json, as a jq program: same output, same key
# order, for whole-process comparisons (jq/jaq against `syncdef transform --input-lines`).
.account as $a
| ([$a.addresses[]? | select(.isBilling == true)] | if length == 1 then .[0] else null end) as $b
| {
    DisplayName: $a.name,
    CompanyName: $a.name,
    PrimaryPhone: {FreeFormNumber: $a.phone},
    Fax: {FreeFormNumber: $a.fax},
    PrimaryEmailAddr: {Address: $a.corpEmail},
    WebAddr: {URI: $a.webSite},
    BillAddr: ($b | {
      Line1: .address1,
      Line2: .address2,
      City: .city,
      Country: .countryName,
      PostalCode: .postCode,
      CountrySubDivisionCode: .region
    }),
    Taxable: $a.isTaxable,
    CurrencyRef: (
      if ($a.accountCurrency | type) == "object" and ($a.accountCurrency | has("currency"))
      then {value: $a.accountCurrency.currency.mnemonic, name: $a.accountCurrency.currency.name}
      else {value: "", name: ""}
      end
    )
  }
