"""Lookup: one field for any CNJ number, CPF, CNPJ or OAB, and what the service holds."""
