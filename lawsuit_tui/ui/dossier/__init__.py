"""The dossier: due diligence of a person or company (F9)."""
