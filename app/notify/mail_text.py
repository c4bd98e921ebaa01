"""The words of the mails and of the small pages their links open, in the client's six
languages (the player's language when they gave the address)."""

from __future__ import annotations

from typing import TypedDict


class Words(TypedDict):
    confirm_subject: str
    confirm_body: str
    """{link}: the confirmation link."""
    digest_subject: str
    """{n}: how many games wait."""
    digest_intro: str
    game_line: str
    """{code}, {left}, {link}."""
    footer: str
    """{link}: the unsubscribe link."""
    confirmed_page: str
    unknown_link: str
    unsubscribe_question: str
    """{address}."""
    unsubscribe_button: str
    unsubscribed_page: str


WORDS: dict[str, Words] = {
    "en": {
        "confirm_subject": "Confirm your address for Krypkasino",
        "confirm_body": "Someone (hopefully you) asked Krypkasino to send a daily digest of "
        "the games waiting for your move to this address.\n\nConfirm it here:\n{link}\n\n"
        "If it was not you, ignore this mail: nothing more will be sent.",
        "digest_subject": "Krypkasino: {n} game(s) wait for your move",
        "digest_intro": "These games wait for your move:",
        "game_line": "Room {code}: {left} left\n  {link}",
        "footer": "You get this mail once a day at most. Unsubscribe: {link}",
        "confirmed_page": "Your address is confirmed: you will get a digest on the days "
        "when games wait for you.",
        "unknown_link": "This link is not valid (any more).",
        "unsubscribe_question": "Stop all mails from Krypkasino to {address}?",
        "unsubscribe_button": "Unsubscribe",
        "unsubscribed_page": "Unsubscribed: no more mails will be sent to this address.",
    },
    "sv": {
        "confirm_subject": "Bekräfta din adress för Krypkasino",
        "confirm_body": "Någon (förhoppningsvis du) bad Krypkasino skicka en daglig "
        "sammanfattning av partierna som väntar på ditt drag till den här adressen.\n\n"
        "Bekräfta här:\n{link}\n\nOm det inte var du kan du strunta i detta: inget mer skickas.",
        "digest_subject": "Krypkasino: {n} parti(er) väntar på ditt drag",
        "digest_intro": "De här partierna väntar på ditt drag:",
        "game_line": "Rum {code}: {left} kvar\n  {link}",
        "footer": "Du får högst ett sådant brev om dagen. Avsluta: {link}",
        "confirmed_page": "Din adress är bekräftad: du får en sammanfattning de dagar då "
        "partier väntar på dig.",
        "unknown_link": "Länken är inte (längre) giltig.",
        "unsubscribe_question": "Sluta skicka e-post från Krypkasino till {address}?",
        "unsubscribe_button": "Avsluta",
        "unsubscribed_page": "Avslutat: inga fler brev skickas till den här adressen.",
    },
    "nb": {
        "confirm_subject": "Bekreft adressen din for Krypkasino",
        "confirm_body": "Noen (forhåpentligvis du) ba Krypkasino sende en daglig oversikt "
        "over partiene som venter på trekket ditt til denne adressen.\n\nBekreft her:\n"
        "{link}\n\nVar det ikke deg, kan du se bort fra denne e-posten: ingenting mer sendes.",
        "digest_subject": "Krypkasino: {n} parti(er) venter på trekket ditt",
        "digest_intro": "Disse partiene venter på trekket ditt:",
        "game_line": "Rom {code}: {left} igjen\n  {link}",
        "footer": "Du får høyst én slik e-post om dagen. Avslutt: {link}",
        "confirmed_page": "Adressen din er bekreftet: du får en oversikt de dagene partier "
        "venter på deg.",
        "unknown_link": "Lenken er ikke (lenger) gyldig.",
        "unsubscribe_question": "Slutte å sende e-post fra Krypkasino til {address}?",
        "unsubscribe_button": "Avslutt",
        "unsubscribed_page": "Avsluttet: ingen flere e-poster sendes til denne adressen.",
    },
    "es": {
        "confirm_subject": "Confirma tu dirección para Krypkasino",
        "confirm_body": "Alguien (esperamos que tú) pidió a Krypkasino enviar a esta "
        "dirección un resumen diario de las partidas que esperan tu jugada.\n\n"
        "Confírmala aquí:\n{link}\n\nSi no fuiste tú, ignora este correo: no se enviará nada más.",
        "digest_subject": "Krypkasino: {n} partida(s) esperan tu jugada",
        "digest_intro": "Estas partidas esperan tu jugada:",
        "game_line": "Sala {code}: quedan {left}\n  {link}",
        "footer": "Recibes este correo como mucho una vez al día. Darse de baja: {link}",
        "confirmed_page": "Tu dirección está confirmada: recibirás un resumen los días en "
        "que haya partidas esperándote.",
        "unknown_link": "Este enlace no es válido (ya).",
        "unsubscribe_question": "¿Dejar de enviar correos de Krypkasino a {address}?",
        "unsubscribe_button": "Darse de baja",
        "unsubscribed_page": "Baja hecha: no se enviarán más correos a esta dirección.",
    },
    "fr": {
        "confirm_subject": "Confirmez votre adresse pour Krypkasino",
        "confirm_body": "Quelqu'un (vous, espérons-le) a demandé à Krypkasino d'envoyer à "
        "cette adresse un résumé quotidien des parties qui attendent votre coup.\n\n"
        "Confirmez ici :\n{link}\n\nSi ce n'était pas vous, ignorez ce message : "
        "rien d'autre ne sera envoyé.",
        "digest_subject": "Krypkasino : {n} partie(s) attendent votre coup",
        "digest_intro": "Ces parties attendent votre coup :",
        "game_line": "Salle {code} : {left} restant\n  {link}",
        "footer": "Vous recevez ce message au plus une fois par jour. Se désabonner : {link}",
        "confirmed_page": "Votre adresse est confirmée : vous recevrez un résumé les jours "
        "où des parties vous attendent.",
        "unknown_link": "Ce lien n'est pas (ou plus) valide.",
        "unsubscribe_question": "Ne plus envoyer de messages de Krypkasino à {address} ?",
        "unsubscribe_button": "Se désabonner",
        "unsubscribed_page": "Désabonné : plus aucun message ne sera envoyé à cette adresse.",
    },
    "pt": {
        "confirm_subject": "Confirme o seu endereço para o Krypkasino",
        "confirm_body": "Alguém (esperamos que tenha sido você) pediu ao Krypkasino que "
        "enviasse para este endereço um resumo diário dos jogos que esperam a sua jogada.\n\n"
        "Confirme aqui:\n{link}\n\nSe não foi você, ignore este e-mail: nada mais será enviado.",
        "digest_subject": "Krypkasino: {n} jogo(s) esperam a sua jogada",
        "digest_intro": "Estes jogos esperam a sua jogada:",
        "game_line": "Sala {code}: faltam {left}\n  {link}",
        "footer": "Recebe este e-mail no máximo uma vez por dia. Cancelar: {link}",
        "confirmed_page": "O seu endereço está confirmado: receberá um resumo nos dias em "
        "que houver jogos à sua espera.",
        "unknown_link": "Esta ligação não é (já) válida.",
        "unsubscribe_question": "Deixar de enviar e-mails do Krypkasino para {address}?",
        "unsubscribe_button": "Cancelar subscrição",
        "unsubscribed_page": "Subscrição cancelada: não serão enviados mais e-mails para "
        "este endereço.",
    },
}


def words(lang: str) -> Words:
    return WORDS.get(lang, WORDS["en"])


def time_left(ms: int) -> str:
    """A deadline's distance, coarsely and in every language alike: "2 d 5 h", "3 h",
    "40 min"."""
    minutes = max(0, ms) // 60_000
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {mins} min" if hours < 3 else f"{hours} h"
    return f"{mins} min"
