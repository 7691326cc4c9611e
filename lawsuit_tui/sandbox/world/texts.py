"""Step vocabulary and long texts, in the words Brazilian court portals use."""

from __future__ import annotations

# (step_type, content template, attachment type or "", weight)
FILLER: tuple[tuple[str, str, str, int], ...] = (
    (
        "Juntada",
        "Juntada de Petição de manifestação (protocolo {prot}) por {adv} (OAB {oab})",
        "Petição",
        14,
    ),
    ("Juntada", "Juntada de Petição intermediária - {party}", "Petição", 6),
    ("Juntada", "Juntada de documento", "Documento", 5),
    ("Juntada", "Juntada de Aviso de Recebimento (AR) positivo", "Documento", 3),
    ("Juntada", "Juntada de mandado cumprido", "Certidão", 3),
    ("Conclusão", "Conclusos para decisão", "", 9),
    ("Conclusão", "Conclusos para despacho", "", 9),
    (
        "Despacho",
        "Mero expediente: Manifeste-se a parte autora, no prazo de {days} dias.",
        "Despacho",
        6,
    ),
    (
        "Despacho",
        "Despacho proferido: Intimem-se as partes para especificarem provas.",
        "Despacho",
        4,
    ),
    ("Decisão", "Decisão interlocutória proferida: {decision}", "Decisão", 4),
    (
        "Publicação",
        "Publicado no DJe em {date} - Disponibilizado no Diário da Justiça Eletrônico",
        "",
        8,
    ),
    ("Publicação", "Certidão de publicação de relação (Relação {n}/{year})", "", 4),
    ("Intimação", "Expedida intimação eletrônica para {adv} - prazo: {days} dias", "", 6),
    ("Intimação", "Decorrido prazo de {party} em {date}", "", 4),
    ("Mandado", "Expedição de mandado de intimação", "", 3),
    ("Certidão", "Certidão expedida - ato ordinatório praticado", "Certidão", 4),
    ("Ato ordinatório", "Ato ordinatório praticado: Vista à parte contrária.", "", 4),
    ("Remessa", "Remetidos os autos para a Contadoria Judicial", "", 1),
    ("Recebimento", "Recebidos os autos da Contadoria Judicial", "", 1),
    ("Audiência", "Audiência de conciliação designada para {future} às {hour}h", "", 2),
    ("Audiência", "Audiência de conciliação realizada - sem acordo", "Termo", 1),
    ("Petição", "Petição protocolada: pedido de dilação de prazo", "Petição", 2),
    ("Mandado", "Expedição de mandado de penhora e avaliação", "", 1),
    ("Custas", "Guia de custas recolhida - GRU/DARE juntada", "Documento", 1),
)
FILLER_LABOUR = (
    ("Audiência", "Audiência inicial designada (telepresencial) para {future} às {hour}h", "", 3),
    ("Audiência", "Audiência de instrução realizada", "Ata", 2),
    ("Juntada", "Juntada de Contestação - {party}", "Petição", 2),
    ("Perícia", "Laudo pericial juntado - Adicional de insalubridade", "Laudo", 1),
    ("Cálculo", "Homologados os cálculos de liquidação", "Decisão", 1),
)
FILLER_CRIMINAL = (
    ("Juntada", "Juntada de Folha de Antecedentes Criminais", "Documento", 2),
    ("Audiência", "Audiência de instrução e julgamento designada para {future}", "", 2),
    ("Mandado", "Expedição de mandado de intimação do réu", "", 2),
    ("Juntada", "Juntada de Laudo pericial do Instituto de Criminalística", "Laudo", 1),
)
FILLER_SECOND = (
    ("Distribuição", "Redistribuído por sorteio ao Relator {judge}", "", 1),
    ("Pauta", "Incluído em pauta para julgamento virtual de {future}", "", 3),
    ("Conclusão", "Conclusos ao Relator", "", 6),
    ("Juntada", "Juntada de Contrarrazões - {party}", "Petição", 2),
    ("Parecer", "Juntada de Parecer da Procuradoria-Geral de Justiça", "Parecer", 1),
)
FILLER_PRECATORY = (
    ("Ofício", "Ofício requisitório expedido ao ente devedor", "Ofício", 3),
    ("Cálculo", "Atualização de cálculos pela Contadoria - índice IPCA-E", "Cálculo", 2),
    ("Pagamento", "Depósito parcial efetuado pelo ente devedor", "Comprovante", 1),
    ("Ordem cronológica", "Precatório inscrito na ordem cronológica de pagamentos", "", 1),
)
MOVING: tuple[tuple[str, str, str, int], ...] = (
    (
        "Juntada",
        "Juntada de Petição de manifestação (protocolo {prot}) por {adv} (OAB {oab})",
        "Petição",
        6,
    ),
    ("Conclusão", "Conclusos para decisão", "", 5),
    ("Conclusão", "Conclusos para despacho", "", 4),
    (
        "Publicação",
        "Publicado no DJe em {date} - Disponibilizado no Diário da Justiça Eletrônico",
        "",
        4,
    ),
    ("Intimação", "Expedida intimação eletrônica para {adv} - prazo: {days} dias", "", 3),
    ("Mandado", "Expedição de mandado de intimação", "", 2),
    ("Despacho", "Despacho proferido: Manifestem-se as partes sobre o laudo.", "Despacho", 2),
    ("Decisão", "Decisão interlocutória proferida: {decision}", "Decisão", 2),
    ("Certidão", "Certidão de decurso de prazo", "Certidão", 2),
)
DECISIONS = (
    "defiro a tutela de urgência requerida",
    "indefiro o pedido de gratuidade de justiça",
    "determino a penhora on-line via SISBAJUD",
    "acolho os embargos de declaração sem efeitos infringentes",
    "suspendo o feito por 90 dias a pedido das partes",
    "defiro a produção de prova pericial contábil",
    "rejeito a impugnação ao cumprimento de sentença",
)
SENTENCE_TYPES = (
    ("Procedência", "JULGO PROCEDENTE o pedido"),
    ("Procedência em Parte", "JULGO PARCIALMENTE PROCEDENTE o pedido"),
    ("Improcedência", "JULGO IMPROCEDENTE o pedido"),
    ("Homologação de Acordo", "HOMOLOGO o acordo celebrado entre as partes"),
    ("Extinção sem Resolução de Mérito", "JULGO EXTINTO o processo, sem resolução de mérito"),
)
APPEAL_RESULTS = ("Provimento", "Não-Provimento", "Provimento em Parte")

SENTENCE_TEXT = """SENTENÇA

Vistos.

{active} ajuizou a presente ação ({klass}) em face de {passive}, alegando, em síntese, os fatos
narrados na petição inicial. Requereu a procedência dos pedidos e juntou documentos.

Citada, a parte ré apresentou contestação, arguindo preliminares e, no mérito, pugnando pela
improcedência. Houve réplica. As partes foram intimadas a especificar provas.

É o relatório. Fundamento e decido.

O feito comporta julgamento no estado em que se encontra. As preliminares não merecem
acolhimento. No mérito, a prova documental produzida demonstra {merit}.

Diante do exposto, {verdict}, com resolução do mérito, nos termos do art. 487, inciso I, do
Código de Processo Civil. Condeno a parte vencida ao pagamento das custas, despesas processuais
e honorários advocatícios, que fixo em {fee}% do valor atualizado da causa.

P.R.I.C.

{city}, {date}.

{judge}"""
MERITS = (
    "a existência da relação jurídica e o inadimplemento alegado",
    "a falha na prestação do serviço e o dano dela decorrente",
    "o cumprimento dos requisitos legais para a concessão do benefício",
    "a regularidade da cobrança impugnada",
)
PETITION_TEXT = """EXCELENTÍSSIMO(A) SENHOR(A) DOUTOR(A) JUIZ(A) DE DIREITO DA {body}

Processo nº {code}

{party}, já qualificado(a) nos autos em epígrafe, por seu(sua) advogado(a) que esta subscreve,
vem, respeitosamente, à presença de Vossa Excelência, {ask}.

Termos em que pede deferimento.

{city}, {date}.

{adv}
OAB {oab}"""
ASKS = (
    "manifestar-se sobre a contestação apresentada, reiterando os termos da inicial",
    "requerer a juntada do comprovante de recolhimento das custas",
    "requerer a designação de audiência de conciliação",
    "informar o cumprimento da obrigação e requerer a extinção do feito",
    "requerer a expedição de ofício ao BACEN para pesquisa de ativos",
)
