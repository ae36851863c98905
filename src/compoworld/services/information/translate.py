"""Lingua Translate: text translation, language detection and romanization.

Modeled on the Google Cloud Translation API (v2 ``translate``, ``detect`` and
``languages``; v3 ``translateText`` batches and ``romanizeText``). An
open-world service: it holds no records. Its default world model is a
deterministic pseudo-translation:

* common words and phrases are translated through a word-level lexicon that
  pivots through English, so any supported pair translates and dictionary
  sentences survive a round trip;
* words outside the lexicon become plausible loanwords: cognate suffix rules
  for Latin-script languages (-tion gives -ción, -ity gives -ität ...), and
  transliteration into Cyrillic, katakana or hanzi for the other scripts;
* proper names of the world (its people, companies, cities and products),
  other capitalised names, numbers, amounts, codes, e-mail addresses, URLs
  and (for HTML) markup are kept verbatim;
* detection scores the text's script, its lexicon words and its diacritics.

Nothing is random: the same text gives the same translation in every world.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, StringConstraints

from compoworld.engine.context import Ctx
from compoworld.engine.entities import Population
from compoworld.engine.errors import RuleViolation
from compoworld.engine.service import Service
from compoworld.engine.types import City, Country, Language, Quantity, SemanticType, Text
from compoworld.services.kit.examples import fixed_example
from compoworld.services.kit.text import fold

__all__ = ["service"]

service = Service(
    "translate",
    title="Lingua Translate",
    category="translation",
    modeled_on="Google Cloud Translation API v2 (translate, detect, languages) and v3 (translateText, romanizeText)",
    description="Machine translation between twelve languages: translate one text or a batch, detect the language "
    "of a text, list the supported languages with where they are spoken, and romanize Russian, Japanese and "
    "Chinese text. Names, numbers, e-mail addresses and URLs pass through untouched.",
)

LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "es", "it", "pt", "nl", "sv", "pl", "ru", "ja", "zh")
"""The supported languages; the lexicon has one column per language after English."""
LANGUAGE_KEYS = {
    "en": "english",
    "de": "german",
    "fr": "french",
    "es": "spanish",
    "it": "italian",
    "pt": "portuguese",
    "nl": "dutch",
    "sv": "swedish",
    "pl": "polish",
    "ru": "russian",
    "ja": "japanese",
    "zh": "chinese",
}
Script = Literal["Latn", "Cyrl", "Jpan", "Hans"]
SCRIPTS: dict[str, Script] = {"ru": "Cyrl", "ja": "Jpan", "zh": "Hans"}
CJK = frozenset({"ja", "zh"})
NON_LATIN = frozenset({"ru", "ja", "zh"})
MAX_BATCH_TEXTS = 128
MAX_BATCH_CHARACTERS = 30_000

# One entry a line: English | de | fr | es | it | pt | nl | sv | pl | ru | ja | ja romaji | zh | zh pinyin.
# An empty cell means the language drops the word (articles in Polish, Russian, Japanese and Chinese).
_LEXICON = """
the|die|le|el|il|o|de|den||||||
a|ein|un|un|un|um|een|en||||||
an|ein|un|un|un|um|een|en||||||
and|und|et|y|e|e|en|och|i|и|と|to|和|he
or|oder|ou|o|o|ou|of|eller|lub|или|または|mata wa|或|huo
is|ist|est|es|è|é|is|är|jest||です|desu|是|shi
are|sind|sont|son|sono|são|zijn|är|są||です|desu|是|shi
was|war|était|era|era|era|was|var|był|был|でした|deshita|是|shi
be|sein|être|ser|essere|ser|zijn|vara|być|быть|である|de aru|是|shi
not|nicht|pas|no|non|não|niet|inte|nie|не|ない|nai|不|bu
of|von|de|de|di|de|van|av|||の|no|的|de
to|zu|à|a|a|para|naar|till|do|к|に|ni|到|dao
in|in|dans|en|in|em|in|i|w|в|で|de|在|zai
on|auf|sur|en|su|em|op|på|na|на|の上|no ue|在|zai
for|für|pour|para|per|para|voor|för|dla|для|のために|no tame ni|为|wei
with|mit|avec|con|con|com|met|med|z|с|と|to|与|yu
from|von|de|de|da|de|van|från|od|от|から|kara|从|cong
at|bei|à|en|a|em|bij|vid|przy|в|で|de|在|zai
by|durch|par|por|da|por|door|av|przez|по|によって|ni yotte|由|you
this|dies|ce|este|questo|este|dit|detta|to|это|この|kono|这个|zhege
that|das|cela|eso|quello|isso|dat|det|tamto|то|その|sono|那个|nage
we|wir|nous|nosotros|noi|nós|wij|vi|my|мы|私たち|watashitachi|我们|women
you|Sie|vous|usted|voi|você|u|du|ty|вы|あなた|anata|你|ni
i|ich|je|yo|io|eu|ik|jag|ja|я|私|watashi|我|wo
he|er|il|él|lui|ele|hij|han|on|он|彼|kare|他|ta
she|sie|elle|ella|lei|ela|zij|hon|ona|она|彼女|kanojo|她|ta
it|es|il|lo|esso|isso|het|det|to|оно|それ|sore|它|ta
they|sie|ils|ellos|loro|eles|zij|de|oni|они|彼ら|karera|他们|tamen
our|unser|notre|nuestro|nostro|nosso|ons|vår|nasz|наш|私たちの|watashitachi no|我们的|women de
your|Ihr|votre|su|vostro|seu|uw|din|twój|ваш|あなたの|anata no|你的|ni de
my|mein|mon|mi|mio|meu|mijn|min|mój|мой|私の|watashi no|我的|wo de
hello|hallo|bonjour|hola|ciao|olá|hallo|hej|cześć|привет|こんにちは|konnichiwa|你好|ni hao
hi|hallo|salut|hola|ciao|oi|hoi|hej|cześć|привет|やあ|yaa|嗨|hai
thanks|danke|merci|gracias|grazie|obrigado|bedankt|tack|dzięki|спасибо|ありがとう|arigatou|谢谢|xiexie
thank|danke|merci|gracias|grazie|obrigado|bedankt|tack|dziękuję|спасибо|ありがとう|arigatou|谢谢|xiexie
please|bitte|s'il vous plaît|por favor|per favore|por favor|alstublieft|snälla|proszę|пожалуйста|お願いします|onegaishimasu|请|qing
yes|ja|oui|sí|sì|sim|ja|ja|tak|да|はい|hai|是的|shi de
no|nein|non|no|no|não|nee|nej|nie|нет|いいえ|iie|不|bu
good|gut|bon|bueno|buono|bom|goed|bra|dobry|хороший|良い|yoi|好|hao
morning|Morgen|matin|mañana|mattina|manhã|ochtend|morgon|rano|утро|朝|asa|早上|zaoshang
evening|Abend|soir|tarde|sera|noite|avond|kväll|wieczór|вечер|夜|yoru|晚上|wanshang
day|Tag|jour|día|giorno|dia|dag|dag|dzień|день|日|hi|天|tian
today|heute|aujourd'hui|hoy|oggi|hoje|vandaag|idag|dzisiaj|сегодня|今日|kyou|今天|jintian
tomorrow|morgen|demain|mañana|domani|amanhã|morgen|imorgon|jutro|завтра|明日|ashita|明天|mingtian
yesterday|gestern|hier|ayer|ieri|ontem|gisteren|igår|wczoraj|вчера|昨日|kinou|昨天|zuotian
week|Woche|semaine|semana|settimana|semana|week|vecka|tydzień|неделя|週|shuu|周|zhou
month|Monat|mois|mes|mese|mês|maand|månad|miesiąc|месяц|月|tsuki|月|yue
year|Jahr|an|año|anno|ano|jaar|år|rok|год|年|toshi|年|nian
meeting|Besprechung|réunion|reunión|riunione|reunião|vergadering|möte|spotkanie|встреча|会議|kaigi|会议|huiyi
invoice|Rechnung|facture|factura|fattura|fatura|factuur|faktura|faktura|счёт|請求書|seikyuusho|发票|fapiao
order|Bestellung|commande|pedido|ordine|pedido|bestelling|beställning|zamówienie|заказ|注文|chuumon|订单|dingdan
payment|Zahlung|paiement|pago|pagamento|pagamento|betaling|betalning|płatność|платёж|支払い|shiharai|付款|fukuan
price|Preis|prix|precio|prezzo|preço|prijs|pris|cena|цена|価格|kakaku|价格|jiage
customer|Kunde|client|cliente|cliente|cliente|klant|kund|klient|клиент|顧客|kokyaku|客户|kehu
company|Unternehmen|entreprise|empresa|azienda|empresa|bedrijf|företag|firma|компания|会社|kaisha|公司|gongsi
product|Produkt|produit|producto|prodotto|produto|product|produkt|produkt|продукт|製品|seihin|产品|chanpin
delivery|Lieferung|livraison|entrega|consegna|entrega|levering|leverans|dostawa|доставка|配達|haitatsu|交付|jiaofu
shipment|Sendung|expédition|envío|spedizione|remessa|zending|försändelse|przesyłka|отправка|出荷|shukka|货件|huojian
team|Team|équipe|equipo|squadra|equipe|team|team|zespół|команда|チーム|chiimu|团队|tuandui
project|Projekt|projet|proyecto|progetto|projeto|project|projekt|projekt|проект|プロジェクト|purojekuto|项目|xiangmu
report|Bericht|rapport|informe|rapporto|relatório|rapport|rapport|raport|отчёт|報告書|houkokusho|报告|baogao
new|neu|nouveau|nuevo|nuovo|novo|nieuw|ny|nowy|новый|新しい|atarashii|新|xin
old|alt|vieux|viejo|vecchio|velho|oud|gammal|stary|старый|古い|furui|旧|jiu
big|groß|grand|grande|grande|grande|groot|stor|duży|большой|大きい|ookii|大|da
small|klein|petit|pequeño|piccolo|pequeno|klein|liten|mały|маленький|小さい|chiisai|小|xiao
time|Zeit|temps|tiempo|tempo|tempo|tijd|tid|czas|время|時間|jikan|时间|shijian
email|E-Mail|e-mail|correo|email|e-mail|e-mail|e-post|e-mail|письмо|メール|meeru|邮件|youjian
message|Nachricht|message|mensaje|messaggio|mensagem|bericht|meddelande|wiadomość|сообщение|メッセージ|messeeji|消息|xiaoxi
call|Anruf|appel|llamada|chiamata|chamada|gesprek|samtal|rozmowa|звонок|通話|tsuuwa|通话|tonghua
help|Hilfe|aide|ayuda|aiuto|ajuda|hulp|hjälp|pomoc|помощь|助け|tasuke|帮助|bangzhu
question|Frage|question|pregunta|domanda|pergunta|vraag|fråga|pytanie|вопрос|質問|shitsumon|问题|wenti
problem|Problem|problème|problema|problema|problema|probleem|problem|problem|проблема|問題|mondai|问题|wenti
account|Konto|compte|cuenta|conto|conta|account|konto|konto|аккаунт|アカウント|akaunto|账户|zhanghu
contact|Kontakt|contact|contacto|contatto|contato|contact|kontakt|kontakt|контакт|連絡先|renrakusaki|联系人|lianxiren
address|Adresse|adresse|dirección|indirizzo|endereço|adres|adress|adres|адрес|住所|juusho|地址|dizhi
phone|Telefon|téléphone|teléfono|telefono|telefone|telefoon|telefon|telefon|телефон|電話|denwa|电话|dianhua
number|Nummer|numéro|número|numero|número|nummer|nummer|numer|номер|番号|bangou|号码|haoma
name|Name|nom|nombre|nome|nome|naam|namn|imię|имя|名前|namae|名字|mingzi
city|Stadt|ville|ciudad|città|cidade|stad|stad|miasto|город|都市|toshi|城市|chengshi
country|Land|pays|país|paese|país|land|land|kraj|страна|国|kuni|国家|guojia
office|Büro|bureau|oficina|ufficio|escritório|kantoor|kontor|biuro|офис|オフィス|ofisu|办公室|bangongshi
welcome|willkommen|bienvenue|bienvenido|benvenuto|bem-vindo|welkom|välkommen|witamy|добро пожаловать|ようこそ|youkoso|欢迎|huanying
dear|liebe|cher|estimado|caro|caro|beste|kära|drogi|уважаемый|親愛なる|shin'ai naru|亲爱的|qin'ai de
sorry|Entschuldigung|désolé|lo siento|scusa|desculpe|sorry|förlåt|przepraszam|извините|すみません|sumimasen|抱歉|baoqian
need|brauchen|besoin|necesitar|bisogno|precisar|nodig|behöver|potrzebować|нужно|必要|hitsuyou|需要|xuyao
have|haben|avoir|tener|avere|ter|hebben|ha|mieć|иметь|持つ|motsu|有|you
has|hat|a|tiene|ha|tem|heeft|har|ma|имеет|持っている|motte iru|有|you
will|werden|va|va|farà|vai|zal|ska|będzie|будет|でしょう|deshou|将|jiang
can|können|peut|puede|può|pode|kan|kan|może|может|できる|dekiru|可以|keyi
send|senden|envoyer|enviar|inviare|enviar|versturen|skicka|wysłać|отправить|送る|okuru|发送|fasong
see|sehen|voir|ver|vedere|ver|zien|se|zobaczyć|видеть|見る|miru|看|kan
know|wissen|savoir|saber|sapere|saber|weten|veta|wiedzieć|знать|知る|shiru|知道|zhidao
update|Aktualisierung|mise à jour|actualización|aggiornamento|atualização|update|uppdatering|aktualizacja|обновление|更新|koushin|更新|gengxin
issue|Problem|problème|incidencia|problema|problema|probleem|ärende|zgłoszenie|проблема|課題|kadai|问题|wenti
ticket|Ticket|ticket|ticket|ticket|ticket|ticket|ärende|zgłoszenie|заявка|チケット|chiketto|工单|gongdan
review|Überprüfung|revue|revisión|revisione|revisão|beoordeling|granskning|przegląd|обзор|レビュー|rebyuu|审查|shencha
sales|Vertrieb|ventes|ventas|vendite|vendas|verkoop|försäljning|sprzedaż|продажи|営業|eigyou|销售|xiaoshou
support|Support|assistance|soporte|assistenza|suporte|ondersteuning|support|wsparcie|поддержка|サポート|sapooto|支持|zhichi
total|Gesamt|total|total|totale|total|totaal|totalt|suma|итого|合計|goukei|总计|zongji
amount|Betrag|montant|importe|importo|valor|bedrag|belopp|kwota|сумма|金額|kingaku|金额|jine
due|fällig|dû|vencido|scaduto|vencido|verschuldigd|förfallen|należny|к оплате|期限|kigen|到期|daoqi
paid|bezahlt|payé|pagado|pagato|pago|betaald|betald|zapłacony|оплачен|支払済み|shiharaizumi|已付|yifu
free|kostenlos|gratuit|gratis|gratuito|grátis|gratis|gratis|darmowy|бесплатный|無料|muryou|免费|mianfei
open|offen|ouvert|abierto|aperto|aberto|open|öppen|otwarty|открытый|開いている|hiraite iru|打开|dakai
closed|geschlossen|fermé|cerrado|chiuso|fechado|gesloten|stängd|zamknięty|закрытый|閉じた|tojita|关闭|guanbi
ready|bereit|prêt|listo|pronto|pronto|klaar|klar|gotowy|готовый|準備完了|junbi kanryou|准备好|zhunbei hao
important|wichtig|important|importante|importante|importante|belangrijk|viktig|ważny|важный|重要|juuyou|重要|zhongyao
urgent|dringend|urgent|urgente|urgente|urgente|dringend|brådskande|pilny|срочный|緊急|kinkyuu|紧急|jinji
next|nächste|prochain|próximo|prossimo|próximo|volgende|nästa|następny|следующий|次|tsugi|下一个|xia yige
last|letzte|dernier|último|ultimo|último|laatste|sista|ostatni|последний|最後|saigo|最后|zuihou
first|erste|premier|primero|primo|primeiro|eerste|första|pierwszy|первый|最初|saisho|第一|diyi
all|alle|tout|todo|tutto|todo|alle|alla|wszystko|все|すべて|subete|所有|suoyou
some|einige|quelques|algunos|alcuni|alguns|sommige|några|niektóre|некоторые|いくつか|ikutsuka|一些|yixie
many|viele|beaucoup|muchos|molti|muitos|veel|många|wiele|много|多くの|ooku no|许多|xuduo
more|mehr|plus|más|più|mais|meer|mer|więcej|больше|もっと|motto|更多|gengduo
very|sehr|très|muy|molto|muito|zeer|mycket|bardzo|очень|とても|totemo|非常|feichang
here|hier|ici|aquí|qui|aqui|hier|här|tutaj|здесь|ここ|koko|这里|zheli
there|dort|là|allí|lì|lá|daar|där|tam|там|そこ|soko|那里|nali
when|wann|quand|cuando|quando|quando|wanneer|när|kiedy|когда|いつ|itsu|什么时候|shenme shihou
where|wo|où|dónde|dove|onde|waar|var|gdzie|где|どこ|doko|哪里|nali
what|was|quoi|qué|cosa|o que|wat|vad|co|что|何|nani|什么|shenme
who|wer|qui|quién|chi|quem|wie|vem|kto|кто|誰|dare|谁|shei
how|wie|comment|cómo|come|como|hoe|hur|jak|как|どう|dou|怎么|zenme
why|warum|pourquoi|por qué|perché|por que|waarom|varför|dlaczego|почему|なぜ|naze|为什么|weishenme
because|weil|parce que|porque|perché|porque|omdat|eftersom|ponieważ|потому что|なぜなら|nazenara|因为|yinwei
but|aber|mais|pero|ma|mas|maar|men|ale|но|しかし|shikashi|但是|danshi
if|wenn|si|si|se|se|als|om|jeśli|если|もし|moshi|如果|ruguo
also|auch|aussi|también|anche|também|ook|också|też|также|も|mo|也|ye
only|nur|seulement|solo|solo|apenas|alleen|bara|tylko|только|だけ|dake|只|zhi
now|jetzt|maintenant|ahora|ora|agora|nu|nu|teraz|сейчас|今|ima|现在|xianzai
again|wieder|encore|otra vez|ancora|novamente|opnieuw|igen|znowu|снова|再び|futatabi|再次|zaici
english|Englisch|anglais|inglés|inglese|inglês|Engels|engelska|angielski|английский|英語|eigo|英语|yingyu
german|Deutsch|allemand|alemán|tedesco|alemão|Duits|tyska|niemiecki|немецкий|ドイツ語|doitsugo|德语|deyu
french|Französisch|français|francés|francese|francês|Frans|franska|francuski|французский|フランス語|furansugo|法语|fayu
spanish|Spanisch|espagnol|español|spagnolo|espanhol|Spaans|spanska|hiszpański|испанский|スペイン語|supeingo|西班牙语|xibanyayu
italian|Italienisch|italien|italiano|italiano|italiano|Italiaans|italienska|włoski|итальянский|イタリア語|itariago|意大利语|yidaliyu
portuguese|Portugiesisch|portugais|portugués|portoghese|português|Portugees|portugisiska|portugalski|португальский|ポルトガル語|porutogarugo|葡萄牙语|putaoyayu
dutch|Niederländisch|néerlandais|neerlandés|olandese|holandês|Nederlands|nederländska|niderlandzki|нидерландский|オランダ語|orandago|荷兰语|helanyu
swedish|Schwedisch|suédois|sueco|svedese|sueco|Zweeds|svenska|szwedzki|шведский|スウェーデン語|suweedengo|瑞典语|ruidianyu
polish|Polnisch|polonais|polaco|polacco|polonês|Pools|polska|polski|польский|ポーランド語|poorandogo|波兰语|bolanyu
russian|Russisch|russe|ruso|russo|russo|Russisch|ryska|rosyjski|русский|ロシア語|roshiago|俄语|eyu
japanese|Japanisch|japonais|japonés|giapponese|japonês|Japans|japanska|japoński|японский|日本語|nihongo|日语|riyu
chinese|Chinesisch|chinois|chino|cinese|chinês|Chinees|kinesiska|chiński|китайский|中国語|chuugokugo|中文|zhongwen
thank you|danke|merci|gracias|grazie|obrigado|dank u|tack|dziękuję|спасибо|ありがとうございます|arigatou gozaimasu|谢谢你|xiexie ni
good morning|guten Morgen|bonjour|buenos días|buongiorno|bom dia|goedemorgen|god morgon|dzień dobry|доброе утро|おはようございます|ohayou gozaimasu|早上好|zaoshang hao
good evening|guten Abend|bonsoir|buenas tardes|buonasera|boa noite|goedenavond|god kväll|dobry wieczór|добрый вечер|こんばんは|konbanwa|晚上好|wanshang hao
best regards|mit freundlichen Grüßen|cordialement|saludos cordiales|cordiali saluti|atenciosamente|met vriendelijke groet|med vänliga hälsningar|z poważaniem|с уважением|よろしくお願いします|yoroshiku onegaishimasu|此致敬礼|cizhi jingli
kind regards|viele Grüße|bien à vous|un saludo|distinti saluti|cumprimentos|vriendelijke groeten|vänliga hälsningar|pozdrawiam|всего доброго|敬具|keigu|祝好|zhu hao
how are you|wie geht es Ihnen|comment allez-vous|cómo estás|come stai|como vai|hoe gaat het|hur mår du|jak się masz|как дела|お元気ですか|ogenki desu ka|你好吗|ni hao ma
of course|natürlich|bien sûr|por supuesto|certo|claro|natuurlijk|självklart|oczywiście|конечно|もちろん|mochiron|当然|dangran
as soon as possible|so bald wie möglich|dès que possible|lo antes posible|il prima possibile|o mais rápido possível|zo snel mogelijk|så snart som möjligt|jak najszybciej|как можно скорее|できるだけ早く|dekiru dake hayaku|尽快|jinkuai
see you|bis bald|à bientôt|hasta luego|a presto|até logo|tot ziens|vi ses|do zobaczenia|до встречи|またね|mata ne|再见|zaijian
on time|pünktlich|à l'heure|a tiempo|in tempo|a tempo|op tijd|i tid|na czas|вовремя|時間通りに|jikan doori ni|准时|zhunshi
"""

# Other forms the source side understands (feminine and plural forms, contractions): language | form | English.
# They only translate from a language; translating into it uses the lexicon's form.
_EXTRA_FORMS = """
de|der|the
de|den|the
de|dem|the
de|des|of
de|eine|a
de|einen|a
de|einer|a
de|neue|new
de|neuen|new
de|neues|new
de|vielen|many
de|dank|thanks
de|zur|to
de|zum|to
de|im|in
de|am|at
fr|la|the
fr|les|the
fr|une|a
fr|des|some
fr|du|of
fr|au|to
fr|aux|to
fr|prête|ready
fr|nouvelle|new
fr|vos|your
fr|nos|our
es|la|the
es|las|the
es|los|the
es|una|a
es|está|is
es|están|are
es|lista|ready
es|listos|ready
es|nueva|new
es|del|of
es|al|to
it|la|the
it|lo|the
it|gli|the
it|le|the
it|una|a
it|pronta|ready
it|nuova|new
it|del|of
it|della|of
pt|a|the
pt|os|the
pt|as|the
pt|uma|a
pt|está|is
pt|estão|are
pt|pronta|ready
pt|nova|new
pt|pelo|for
pt|pela|for
pt|do|of
pt|da|of
pt|obrigada|thanks
nl|het|the
nl|nieuwe|new
sv|ett|a
sv|nya|new
sv|fakturan|invoice
sv|betalningen|payment
sv|mötet|meeting
pl|gotowa|ready
pl|gotowe|ready
pl|za|for
pl|nowa|new
pl|nowe|new
ru|готов|ready
ru|готова|ready
ru|оплату|payment
ru|оплата|payment
ru|за|for
ru|новая|new
ru|новое|new
"""

PHRASE_WORDS_MAX = 6

# Katakana for (onset, vowel) units, vowels in the order a i u e o.
_KANA_ROWS: dict[str, tuple[str, ...]] = {
    "": ("ア", "イ", "ウ", "エ", "オ"),
    "k": ("カ", "キ", "ク", "ケ", "コ"),
    "g": ("ガ", "ギ", "グ", "ゲ", "ゴ"),
    "s": ("サ", "シ", "ス", "セ", "ソ"),
    "z": ("ザ", "ジ", "ズ", "ゼ", "ゾ"),
    "t": ("タ", "ティ", "トゥ", "テ", "ト"),
    "d": ("ダ", "ディ", "ドゥ", "デ", "ド"),
    "n": ("ナ", "ニ", "ヌ", "ネ", "ノ"),
    "h": ("ハ", "ヒ", "フ", "ヘ", "ホ"),
    "b": ("バ", "ビ", "ブ", "ベ", "ボ"),
    "v": ("バ", "ビ", "ブ", "ベ", "ボ"),
    "p": ("パ", "ピ", "プ", "ペ", "ポ"),
    "m": ("マ", "ミ", "ム", "メ", "モ"),
    "y": ("ヤ", "イ", "ユ", "イェ", "ヨ"),
    "r": ("ラ", "リ", "ル", "レ", "ロ"),
    "l": ("ラ", "リ", "ル", "レ", "ロ"),
    "w": ("ワ", "ウィ", "ウ", "ウェ", "ウォ"),
    "f": ("ファ", "フィ", "フ", "フェ", "フォ"),
    "j": ("ジャ", "ジ", "ジュ", "ジェ", "ジョ"),
    "sh": ("シャ", "シ", "シュ", "シェ", "ショ"),
    "ch": ("チャ", "チ", "チュ", "チェ", "チョ"),
    "ts": ("ツァ", "ツィ", "ツ", "ツェ", "ツォ"),
}
_KANA_LONE = {"n": "ン", "t": "ト", "d": "ド", "ch": "チ", "j": "ジ", "sh": "シュ", "": ""}

# Hepburn romanization of katakana; hiragana reads the same (its code points are 0x60 lower).
_HEPBURN = (
    "ア a イ i ウ u エ e オ o カ ka キ ki ク ku ケ ke コ ko ガ ga ギ gi グ gu ゲ ge ゴ go "
    "サ sa シ shi ス su セ se ソ so ザ za ジ ji ズ zu ゼ ze ゾ zo タ ta チ chi ツ tsu テ te ト to "
    "ダ da ヂ ji ヅ zu デ de ド do ナ na ニ ni ヌ nu ネ ne ノ no ハ ha ヒ hi フ fu ヘ he ホ ho "
    "バ ba ビ bi ブ bu ベ be ボ bo パ pa ピ pi プ pu ペ pe ポ po マ ma ミ mi ム mu メ me モ mo "
    "ヤ ya ユ yu ヨ yo ラ ra リ ri ル ru レ re ロ ro ワ wa ヲ o ン n ァ a ィ i ゥ u ェ e ォ o "
    "ティ ti ディ di トゥ tu ドゥ du ファ fa フィ fi フェ fe フォ fo ウィ wi ウェ we ウォ wo "
    "シェ she チェ che ジェ je イェ ye ツァ tsa ツィ tsi ツェ tse ツォ tso"
)
_YOON = {"キ": "ky", "ギ": "gy", "シ": "sh", "ジ": "j", "チ": "ch", "ニ": "ny", "ヒ": "hy", "ビ": "by", "ピ": "py"}
_YOON.update({"ミ": "my", "リ": "ry"})

# Hanzi for transliterating foreign words, vowels a i u e o, and each character's pinyin.
_HAN_ROWS = {
    "": "阿伊乌埃奥",
    "b": "巴比布贝博",
    "p": "帕皮普佩波",
    "m": "马米穆梅莫",
    "f": "法菲富费福",
    "v": "瓦维武维沃",
    "w": "瓦威吴韦沃",
    "d": "达迪杜德多",
    "t": "塔蒂图特托",
    "n": "纳尼努内诺",
    "l": "拉利卢勒洛",
    "r": "拉里鲁雷罗",
    "g": "加吉古格戈",
    "k": "卡基库克科",
    "h": "哈希胡赫霍",
    "j": "贾吉朱杰乔",
    "z": "扎齐祖泽佐",
    "s": "萨西苏塞索",
    "y": "亚伊尤耶约",
    "sh": "沙施舒舍肖",
    "ch": "查奇楚切乔",
    "ts": "察茨楚采措",
}
_HAN_LONE = {"b": "布", "p": "普", "m": "姆", "f": "夫", "v": "夫", "w": "乌", "d": "德", "t": "特", "n": "恩"}
_HAN_LONE.update({"l": "尔", "r": "尔", "g": "格", "k": "克", "h": "赫", "j": "日", "z": "兹", "s": "斯", "y": "伊"})
_HAN_LONE.update({"sh": "什", "ch": "奇", "ts": "茨", "": ""})
_HAN_PINYIN_TEXT = (
    "阿a 伊yi 乌wu 埃ai 奥ao 巴ba 比bi 布bu 贝bei 博bo 帕pa 皮pi 普pu 佩pei 波bo 马ma 米mi 穆mu 梅mei 莫mo "
    "法fa 菲fei 富fu 费fei 福fu 瓦wa 维wei 武wu 沃wo 威wei 吴wu 韦wei 达da 迪di 杜du 德de 多duo 塔ta 蒂di "
    "图tu 特te 托tuo 纳na 尼ni 努nu 内nei 诺nuo 拉la 利li 卢lu 勒le 洛luo 里li 鲁lu 雷lei 罗luo 加jia 吉ji "
    "古gu 格ge 戈ge 卡ka 基ji 库ku 克ke 科ke 哈ha 希xi 胡hu 赫he 霍huo 贾jia 朱zhu 杰jie 乔qiao 扎zha 齐qi "
    "祖zu 泽ze 佐zuo 萨sa 西xi 苏su 塞sai 索suo 亚ya 尤you 耶ye 约yue 沙sha 施shi 舒shu 舍she 肖xiao 查cha "
    "奇qi 楚chu 切qie 察cha 茨ci 采cai 措cuo 姆mu 夫fu 恩en 尔er 日ri 兹zi 斯si 什shi"
)
HAN_PINYIN: dict[str, str] = {item[0]: item[1:] for item in _HAN_PINYIN_TEXT.split()}

_CYRILLIC_OUT = (
    ("shch", "щ"),
    ("sh", "ш"),
    ("ch", "ч"),
    ("zh", "ж"),
    ("kh", "х"),
    ("ts", "ц"),
    ("ya", "я"),
    ("yu", "ю"),
    ("yo", "йо"),
    ("ee", "и"),
    ("oo", "у"),
    ("ea", "и"),
)
_CYRILLIC_LETTERS = dict(zip("abcdefghijklmnopqrstuvwxyz", "абкдефгхи*клмнопкрстувв*йз", strict=True))
_CYRILLIC_LETTERS.update({"j": "дж", "x": "кс", "y": "й"})
_CYRILLIC_IN = dict(
    zip(
        "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
        [
            "a",
            "b",
            "v",
            "g",
            "d",
            "e",
            "yo",
            "zh",
            "z",
            "i",
            "y",
            "k",
            "l",
            "m",
            "n",
            "o",
            "p",
            "r",
            "s",
            "t",
            "u",
            "f",
            "kh",
            "ts",
            "ch",
            "sh",
            "shch",
            "_",
            "y",
            "_",
            "e",
            "yu",
            "ya",
        ],
        strict=True,
    )
)

# Cognate suffixes English words take in each Latin-script language, longest first, and stem spellings.
_COGNATES: dict[str, tuple[tuple[str, str], ...]] = {
    "de": (
        ("ation", "ation"),
        ("ical", "isch"),
        ("ity", "ität"),
        ("ism", "ismus"),
        ("ize", "isieren"),
        ("ous", "ös"),
        ("ary", "är"),
        ("ic", "isch"),
    ),
    "fr": (
        ("ical", "ique"),
        ("ity", "ité"),
        ("ism", "isme"),
        ("ize", "iser"),
        ("ous", "eux"),
        ("ary", "aire"),
        ("ive", "if"),
        ("ic", "ique"),
    ),
    "es": (
        ("tion", "ción"),
        ("sion", "sión"),
        ("ical", "ico"),
        ("ity", "idad"),
        ("ism", "ismo"),
        ("ize", "izar"),
        ("ous", "oso"),
        ("ary", "ario"),
        ("ive", "ivo"),
        ("ment", "mento"),
        ("ic", "ico"),
    ),
    "it": (
        ("tion", "zione"),
        ("sion", "sione"),
        ("ical", "ico"),
        ("ity", "ità"),
        ("ism", "ismo"),
        ("ize", "izzare"),
        ("ous", "oso"),
        ("ary", "ario"),
        ("ive", "ivo"),
        ("ment", "mento"),
        ("ic", "ico"),
    ),
    "pt": (
        ("tion", "ção"),
        ("sion", "são"),
        ("ical", "ico"),
        ("ity", "idade"),
        ("ism", "ismo"),
        ("ize", "izar"),
        ("ous", "oso"),
        ("ary", "ário"),
        ("ive", "ivo"),
        ("ment", "mento"),
        ("ic", "ico"),
    ),
    "nl": (
        ("tion", "tie"),
        ("ical", "isch"),
        ("ity", "iteit"),
        ("ism", "isme"),
        ("ize", "iseren"),
        ("ous", "eus"),
        ("ary", "air"),
        ("ic", "isch"),
    ),
    "sv": (
        ("ical", "isk"),
        ("ity", "itet"),
        ("ism", "ism"),
        ("ize", "isera"),
        ("ous", "ös"),
        ("ary", "är"),
        ("ic", "isk"),
    ),
    "pl": (
        ("tion", "cja"),
        ("sion", "sja"),
        ("ical", "iczny"),
        ("ity", "ność"),
        ("ism", "izm"),
        ("ize", "izować"),
        ("ous", "owy"),
        ("ary", "arny"),
        ("ive", "ywny"),
        ("ic", "iczny"),
    ),
}
_STEM_SPELLING: dict[str, tuple[tuple[str, str], ...]] = {
    "de": ((r"c(?![hei])", "k"),),
    "nl": ((r"c(?![hei])", "k"),),
    "sv": ((r"c(?![hei])", "k"), ("ph", "f"), ("th", "t")),
    "pl": ((r"c(?![hei])", "k"), ("ph", "f"), ("th", "t"), ("v", "w"), ("x", "ks")),
    "es": (("ph", "f"), ("th", "t")),
    "it": (("ph", "f"), ("th", "t"), ("x", "s")),
    "pt": (("ph", "f"), ("th", "t")),
}

DIACRITICS: dict[str, tuple[str, ...]] = {
    "ä": ("de", "sv"),
    "ö": ("de", "sv"),
    "ü": ("de",),
    "ß": ("de",),
    "å": ("sv",),
    "é": ("fr", "es", "pt"),
    "è": ("fr", "it"),
    "ê": ("fr", "pt"),
    "à": ("fr", "it"),
    "ç": ("fr", "pt"),
    "ù": ("it", "fr"),
    "ñ": ("es",),
    "á": ("es", "pt"),
    "í": ("es", "pt"),
    "ó": ("es", "pt", "pl"),
    "ú": ("es", "pt"),
    "ã": ("pt",),
    "õ": ("pt",),
    "ì": ("it",),
    "ò": ("it",),
    "ł": ("pl",),
    "ś": ("pl",),
    "ż": ("pl",),
    "ź": ("pl",),
    "ć": ("pl",),
    "ń": ("pl",),
    "ę": ("pl",),
    "ą": ("pl",),
    "ë": ("nl", "fr"),
    "ï": ("nl", "fr"),
}
CJK_PUNCT = {"ja": {".": "。", ",": "、", "!": "！", "?": "？"}, "zh": {".": "。", ",": "，", "!": "！", "?": "？"}}
ASCII_PUNCT = {"。": ".", "、": ",", "，": ",", "！": "!", "？": "?", "：": ":", "；": ";"}
DROPPED_PARTICLES = frozenset({"は", "を", "が", "へ", "ね", "よ", "か"})
PARTICLE_READINGS = {"は": "wa", "を": "o", "へ": "e"}

_WORD = r"[^\W\d_]+(?:['’-][^\W\d_]+)*"


# -- the lexicon -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Entry:
    """One lexicon entry: an English word or phrase and its forms in every language."""

    en: str
    forms: dict[str, str]
    readings: dict[str, str]


def _load_lexicon() -> dict[str, _Entry]:
    entries: dict[str, _Entry] = {}
    for line in _LEXICON.strip().splitlines():
        cells = line.split("|")
        if len(cells) != 14:
            raise ValueError(f"translate lexicon line has {len(cells)} cells: {line!r}")
        en, de, fr, es, it, pt, nl, sv, pl, ru, ja, ja_reading, zh, zh_reading = cells
        forms = {"en": en, "de": de, "fr": fr, "es": es, "it": it, "pt": pt, "nl": nl, "sv": sv, "pl": pl}
        forms.update({"ru": ru, "ja": ja, "zh": zh})
        entries[en] = _Entry(en, forms, {"ja": ja_reading, "zh": zh_reading})
    return entries


def _words(text: str) -> tuple[str, ...]:
    return tuple(w.lower() for w in re.findall(_WORD, text))


LEXICON = _load_lexicon()
REVERSE: dict[str, dict[tuple[str, ...], str]] = {}
"""For each space-separated language: its forms (lower-case word tuples) to English; the first entry wins."""
CJK_REVERSE: dict[str, dict[str, str]] = {}
"""For Japanese and Chinese: each form to English."""
for _lang in LANGUAGES:
    if _lang in CJK:
        CJK_REVERSE[_lang] = {}
        for _e in LEXICON.values():
            if _e.forms[_lang]:
                CJK_REVERSE[_lang].setdefault(_e.forms[_lang], _e.en)
    else:
        REVERSE[_lang] = {}
        for _e in LEXICON.values():
            _key = _words(_e.forms[_lang])
            if _key:
                REVERSE[_lang].setdefault(_key, _e.en)
for _line in _EXTRA_FORMS.strip().splitlines():
    _lang, _form, _en = _line.split("|")
    if _en not in LEXICON:
        raise ValueError(f"translate extra form {_line!r} names no lexicon entry")
    REVERSE[_lang].setdefault(_words(_form), _en)
CJK_MAX = max(len(f) for rev in CJK_REVERSE.values() for f in rev)
LATIN_LANGUAGES = tuple(lang for lang in LANGUAGES if lang not in NON_LATIN)
_KANA_HEPBURN: dict[str, str] = {}
for _kana, _roman in zip(_HEPBURN.split()[::2], _HEPBURN.split()[1::2], strict=True):
    _KANA_HEPBURN[_kana] = _roman
    _KANA_HEPBURN["".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in _kana)] = _roman
for _kana, _onset in _YOON.items():
    for _small, _v in (("ャ", "a"), ("ュ", "u"), ("ョ", "o")):
        _KANA_HEPBURN[_kana + _small] = _onset + _v
        _KANA_HEPBURN[chr(ord(_kana) - 0x60) + chr(ord(_small) - 0x60)] = _onset + _v


# -- scripts -----------------------------------------------------------------------------


def _is_kana(ch: str) -> bool:
    return "\u3040" <= ch <= "\u30ff"


def _is_han(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf" or ch == "々"


def _is_cjk(text: str) -> bool:
    return any(_is_kana(c) or _is_han(c) for c in text)


def _is_cyrillic(text: str) -> bool:
    return any("\u0400" <= c <= "\u04ff" for c in text)


def _phonetic(word: str) -> str:
    """A rough phonetic spelling of a Latin word, the input of transliteration."""
    w = re.sub(r"[^a-z]", "", fold(word, keep_punctuation=True))
    for a, b in (("tion", "shon"), ("sion", "shon"), ("ph", "f"), ("th", "t"), ("ck", "k"), ("qu", "kw"), ("wh", "w")):
        w = w.replace(a, b)
    for a, b in (("ee", "i"), ("ea", "i"), ("oo", "u"), ("ou", "au")):
        w = w.replace(a, b)
    w = w.replace("x", "ks")
    w = re.sub(r"c(?=[eiy])", "s", w)
    w = re.sub(r"c(?!h)", "k", w)
    w = re.sub(r"(?<=[^aeiou])y(?![aeiou])", "i", w)
    w = re.sub(r"^y(?![aeiou])", "i", w)
    return re.sub(r"([b-df-hj-np-tv-z])\1", r"\1", w)


def _units(phonetic: str) -> list[tuple[str, str]]:
    """Split a phonetic spelling into (onset, vowel) units; a lone consonant has an empty vowel."""
    out: list[tuple[str, str]] = []
    i = 0
    while i < len(phonetic):
        onset = next((o for o in ("sh", "ch", "ts") if phonetic.startswith(o, i)), "")
        if not onset and phonetic[i] not in "aeiou":
            onset = phonetic[i]
        j = i + len(onset)
        if j < len(phonetic) and phonetic[j] in "aeiou":
            out.append((onset, phonetic[j]))
            i = j + 1
        else:
            out.append((onset, ""))
            i = max(j, i + 1)
    return out


def _to_katakana(word: str) -> str:
    out = []
    for onset, vowel in _units(_phonetic(word)):
        row = _KANA_ROWS.get(onset, _KANA_ROWS["k"])
        out.append(row["aiueo".index(vowel)] if vowel else _KANA_LONE.get(onset, row[2]))
    return "".join(out)


def _to_hanzi(word: str) -> str:
    out = []
    for onset, vowel in _units(_phonetic(word)):
        row = _HAN_ROWS.get(onset, _HAN_ROWS["k"])
        out.append(row["aiueo".index(vowel)] if vowel else _HAN_LONE.get(onset, "克"))
    return "".join(out)


def _to_cyrillic(word: str) -> str:
    w = _phonetic(word)
    for a, b in _CYRILLIC_OUT:
        w = w.replace(a, b)
    return "".join(_CYRILLIC_LETTERS.get(c, c) for c in w)


def _cyrillic_to_latin(word: str) -> str:
    out = []
    for c in word:
        low = c.lower()
        roman = _CYRILLIC_IN.get(low, low).replace("_", "")
        out.append(roman.capitalize() if c != low else roman)
    return "".join(out)


def _kana_to_latin(text: str) -> str:
    out: list[str] = []
    i = 0
    double = False
    while i < len(text):
        two, one = text[i : i + 2], text[i]
        if one in "ッっ":
            double = True
            i += 1
            continue
        if one == "ー":
            if out and out[-1]:
                out.append(out[-1][-1])
            i += 1
            continue
        roman = _KANA_HEPBURN.get(two)
        step = 2
        if roman is None:
            roman, step = _KANA_HEPBURN.get(one, one), 1
        if double and roman and roman[0] not in "aeiou":
            roman = roman[0] + roman
        double = False
        out.append(roman)
        i += step
    return "".join(out)


def _cognate(word: str, lang: str) -> str:
    """The loanword a Latin-script language would make of an English word (unchanged when no rule fits)."""
    for suffix, replacement in _COGNATES.get(lang, ()):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            stem = word[: -len(suffix)]
            for pattern, spelling in _STEM_SPELLING.get(lang, ()):
                stem = re.sub(pattern, spelling, stem)
            return stem + replacement
    return word


def _apply_case(text: str, case: str) -> str:
    if not text:
        return text
    if case == "upper":
        return text.upper()
    if case == "title":
        return text[:1].upper() + text[1:]
    return text


def _case_of(surface: str) -> str:
    letters = [c for c in surface if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return "upper"
    return "title" if letters and letters[0].isupper() else "lower"


# -- tokens and pieces -------------------------------------------------------------------


def _world_names(pop: Population) -> tuple[str, ...]:
    """Proper names of the world that translation keeps: people, companies, cities, products; longest first."""
    names: set[str] = set()
    for p in pop.people:
        names.update((p.name, p.first_name, p.last_name))
    names.update(c.name for c in pop.companies)
    names.update(place.city for place in pop.places)
    names.update(product.name for product in pop.products)
    return tuple(sorted(names, key=lambda n: (-len(n), n)))


@functools.lru_cache(maxsize=16)
def _token_re(names: tuple[str, ...], html: bool) -> re.Pattern[str]:
    parts = [
        r"(?P<url>(?:https?://|www\.)[^\s<>\"]*[^\s<>\".,;:!?)\]'])",
        r"(?P<email>[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,})",
    ]
    if html:
        parts.append(r"(?P<tag><[^<>]+>|&(?:[A-Za-z]+|#[0-9]+);)")
    if names:
        parts.append(r"(?P<name>(?<![\w@])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w@]))")
    parts += [
        r"(?P<handle>[@#][A-Za-z0-9_]+)",
        r"(?P<number>[^\W\d_]*\d(?:[\w/+-]|[.,:](?=\w))*)",
        r"(?P<word>" + _WORD + ")",
        r"(?P<space>\s+)",
        r"(?P<other>.)",
    ]
    return re.compile("|".join(parts), re.DOTALL)


def _tokens(ctx: Ctx, text: str, html: bool = False) -> list[tuple[str, str]]:
    rx = _token_re(_world_names(ctx.population), html)
    return [(m.lastgroup or "other", m.group()) for m in rx.finditer(text)]


@dataclass(slots=True)
class _Piece:
    """A unit of the source text: a lexicon word, an unknown word, a kept term, a space or punctuation."""

    kind: Literal["word", "unknown", "term", "markup", "space", "gap", "punct"]
    text: str
    en: str = ""
    case: str = "lower"
    latin: str = ""
    reading: str = ""


def _lookup(raw: list[tuple[str, str]], i: int, lang: str) -> tuple[int, str | None]:
    """The longest lexicon phrase of ``lang`` starting at token ``i``: (tokens it spans, English key)."""
    rev = REVERSE[lang]
    for n in range(PHRASE_WORDS_MAX, 0, -1):
        words: list[str] = []
        j = i
        while j < len(raw) and len(words) < n:
            kind, tok = raw[j]
            if kind == "word" and not _is_cjk(tok):
                words.append(tok.lower())
                j += 1
                if len(words) < n and j + 1 < len(raw) and raw[j] == ("space", " ") and raw[j + 1][0] == "word":
                    j += 1
                    continue
            break
        if len(words) == n and tuple(words) in rev:
            return j - i, rev[tuple(words)]
    return 1, None


def _segment(run: str, lang: str, title: bool) -> list[_Piece]:
    """Split a run of Japanese or Chinese text into lexicon words and the rest (longest match first)."""
    rev = CJK_REVERSE[lang]
    found: list[_Piece] = []
    pending = ""

    def flush() -> None:
        nonlocal pending
        if not pending:
            return
        if all(_is_kana(c) for c in pending):
            if pending in DROPPED_PARTICLES:
                found.append(_Piece("gap", pending))
            else:
                found.append(_Piece("unknown", pending, latin=_kana_to_latin(pending), reading=_kana_to_latin(pending)))
        elif all(c in HAN_PINYIN for c in pending):
            roman = "".join(HAN_PINYIN[c] for c in pending)
            found.append(_Piece("unknown", pending, latin=roman, reading=roman))
        else:
            found.append(_Piece("term", pending))
        pending = ""

    i = 0
    while i < len(run):
        for size in range(min(CJK_MAX, len(run) - i), 0, -1):
            chunk = run[i : i + size]
            if chunk in rev:
                flush()
                en = rev[chunk]
                found.append(_Piece("word", chunk, en=en, reading=LEXICON[en].readings[lang]))
                i += size
                break
        else:
            pending += run[i]
            i += 1
    flush()
    out: list[_Piece] = []
    for piece in found:
        if out and piece.kind != "gap" and out[-1].kind != "gap":
            out.append(_Piece("gap", ""))
        out.append(piece)
    for piece in out:
        if piece.kind in ("word", "unknown"):
            piece.case = "title" if title else "lower"
            break
    return out


def _parse(ctx: Ctx, text: str, source: str, html: bool) -> list[_Piece]:
    raw = _tokens(ctx, text, html)
    pieces: list[_Piece] = []
    start = True
    i = 0
    while i < len(raw):
        kind, tok = raw[i]
        if kind == "space":
            pieces.append(_Piece("space", tok))
            start = start or "\n" in tok
        elif kind == "other":
            pieces.append(_Piece("punct", tok))
            start = start or tok in ".!?。！？"
        elif kind == "tag":
            pieces.append(_Piece("markup", tok))
        elif kind != "word":
            pieces.append(_Piece("term", tok))
            start = False
        elif _is_cjk(tok):
            lang = source if source in CJK else ("ja" if any(_is_kana(c) for c in tok) else "zh")
            pieces.extend(_segment(tok, lang, start))
            start = False
        elif len(tok) > 1 and any(c.isupper() for c in tok[1:]):
            pieces.append(_Piece("term", tok))  # acronyms and brand spellings: API, USD, iPhone
            start = False
        else:
            lang = source if source in REVERSE else "en"
            span, en = _lookup(raw, i, lang)
            if en is not None:
                case = _case_of(tok)
                if not start and case == "title" and (en == "i" or LEXICON[en].forms[lang][:1].isupper()):
                    case = "lower"  # "I", and German nouns, are capitalised in mid-sentence anyway
                pieces.append(_Piece("word", "".join(t for _, t in raw[i : i + span]), en=en, case=case))
                i += span
                start = False
                continue
            if tok[0].isupper() and not start:
                pieces.append(_Piece("term", tok))  # a name in mid-sentence
            else:
                latin = _cyrillic_to_latin(tok).lower() if _is_cyrillic(tok) else tok.lower()
                pieces.append(_Piece("unknown", tok, case=_case_of(tok), latin=latin))
            start = False
        i += 1
    return pieces


def _loanword(piece: _Piece, source: str, target: str) -> str:
    if target == "ru":
        return piece.text.lower() if source == "ru" else _to_cyrillic(piece.latin)
    if target == "ja":
        return _to_katakana(piece.latin)
    if target == "zh":
        return _to_hanzi(piece.latin)
    if source == "en":
        return _cognate(piece.latin, target)
    return piece.latin


def _render(pieces: list[_Piece], source: str, target: str) -> str:
    out: list[tuple[str, str]] = []
    carry_title = False
    for p in pieces:
        if p.kind == "word":
            form = LEXICON[p.en].forms[target]
            if not form:
                out.append(("drop", ""))
                carry_title = carry_title or p.case == "title"
                continue
            out.append(("word", _apply_case(form, "title" if carry_title and p.case == "lower" else p.case)))
            carry_title = False
        elif p.kind == "unknown":
            out.append(("word", _apply_case(_loanword(p, source, target), "title" if carry_title else p.case)))
            carry_title = False
        elif p.kind == "gap":
            out.append(("space", "" if target in CJK else " "))
        elif p.kind == "punct":
            out.append(
                ("punct", CJK_PUNCT[target].get(p.text, p.text) if target in CJK else ASCII_PUNCT.get(p.text, p.text))
            )
        else:
            out.append((p.kind, p.text))
            carry_title = carry_title and p.kind == "space"
    keep = [True] * len(out)
    for k, (kind, _) in enumerate(out):
        if kind == "drop":
            keep[k] = False
            if k + 1 < len(out) and out[k + 1][0] == "space":
                keep[k + 1] = False
            elif k > 0 and out[k - 1][0] == "space" and keep[k - 1]:
                keep[k - 1] = False
    kept = [item for item, flag in zip(out, keep, strict=True) if flag]
    if target in CJK:
        joined: list[str] = []
        for k, (kind, text) in enumerate(kept):
            if kind == "space" and "\n" not in text:
                before = joined[-1][-1:] if joined and joined[-1] else ""
                after = kept[k + 1][1][:1] if k + 1 < len(kept) else ""
                if (_is_cjk(before) or before in "。、，！？") and (_is_cjk(after) or not after):
                    continue
                if before in "。、，！？":
                    continue
            joined.append(text)
        return "".join(joined)
    text = "".join(t for _, t in kept)
    if source in CJK:
        text = re.sub(r"([.,!?;:])(?=[^\s\d])", r"\1 ", text)
    return text


def _kept_terms(pieces: list[_Piece]) -> list[str]:
    seen: dict[str, None] = {}
    for p in pieces:
        if p.kind == "term":
            seen.setdefault(p.text, None)
    return list(seen)


# -- detection ---------------------------------------------------------------------------


def _cjk_coverage(runs: list[str], lang: str) -> int:
    covered = 0
    for run in runs:
        i = 0
        while i < len(run):
            for size in range(min(CJK_MAX, len(run) - i), 0, -1):
                if run[i : i + size] in CJK_REVERSE[lang]:
                    covered += size
                    i += size
                    break
            else:
                i += 1
    return covered


def _detect(ctx: Ctx, text: str) -> list[tuple[str, float]]:
    """Candidate languages of a text with confidences between 0 and 1, most likely first; empty if none."""
    words = [tok for kind, tok in _tokens(ctx, text) if kind == "word"]
    latin = cyrillic = kana = han = 0
    for w in words:
        for c in w:
            if _is_kana(c):
                kana += 1
            elif _is_han(c):
                han += 1
            elif "\u0400" <= c <= "\u04ff":
                cyrillic += 1
            elif c.isalpha() and ord(c) < 0x250:
                latin += 1
    if latin + cyrillic + kana + han == 0:
        return []
    if cyrillic + kana + han > latin:
        if cyrillic >= kana + han:
            known = any((w.lower(),) in REVERSE["ru"] for w in words)
            return [("ru", 0.98 if known else 0.9)]
        if kana:
            return [("ja", 0.99)]
        runs = [w for w in words if _is_cjk(w)]
        ja, zh = _cjk_coverage(runs, "ja"), _cjk_coverage(runs, "zh")
        return [("ja", 0.8), ("zh", 0.2)] if ja > zh else [("zh", 0.9), ("ja", 0.1)]
    latin_words = [w.lower() for w in words if not _is_cjk(w) and not _is_cyrillic(w)]
    scores = dict.fromkeys(LATIN_LANGUAGES, 0.0)
    matched = dict.fromkeys(LATIN_LANGUAGES, 0)
    for w in latin_words:
        for lang in LATIN_LANGUAGES:
            if (w,) in REVERSE[lang]:
                scores[lang] += 1
                matched[lang] += 1
        for c in w:
            for lang in DIACRITICS.get(c, ()):
                scores[lang] += 0.5
    total = sum(scores.values())
    if total == 0:
        return [("en", 0.1)]
    ranked = sorted(
        (
            (lang, round(min(0.99, 0.5 * scores[lang] / total + 0.5 * min(1.0, matched[lang] / len(latin_words))), 3))
            for lang in LATIN_LANGUAGES
            if scores[lang] > 0
        ),
        key=lambda g: (-g[1], g[0]),
    )
    return ranked[:3]


# -- results -----------------------------------------------------------------------------


# A text in another language: what a translation is asked for (the text it was given is generic).
Translated = Annotated[str, SemanticType("text.translation"), StringConstraints(max_length=40000)]


class Translation(BaseModel):
    """One translated text (v2 ``translations[]`` item)."""

    translated_text: Translated = Field(description="The translation.")
    source_language: Language = Field(description="The language translated from (given or detected).")
    detected_source_language: Language | None = Field(
        description="The detected source language; set only when no source was given."
    )
    target_language: Language = Field(description="The language translated into.")
    model: Literal["nmt"] = Field(description="The translation model used.")
    billed_characters: Quantity = Field(description="Characters billed for this text.")
    untranslated_terms: list[str] = Field(
        description="Names, numbers, codes, e-mail addresses and URLs kept verbatim, in order of appearance."
    )


class BatchTranslation(BaseModel):
    """Translations of a batch of texts, in the order given."""

    translations: list[Translation] = Field(description="One translation per text, in the order of the texts.")
    target_language: Language = Field(description="The language translated into.")
    billed_characters: Quantity = Field(description="Characters billed for the whole batch.")


class LanguageGuess(BaseModel):
    """One candidate language of a text."""

    language: Language = Field(description="ISO 639-1 code of the language.")
    confidence: float = Field(ge=0, le=1, description="Confidence between 0 and 1.")


class Detection(BaseModel):
    """The detected language of a text (v2 ``detections``)."""

    language: Language = Field(description="ISO 639-1 code of the most likely language.")
    confidence: float = Field(ge=0, le=1, description="Confidence between 0 and 1.")
    is_reliable: bool = Field(description="Whether the detection is confident enough to rely on.")
    script: Script = Field(description="ISO 15924 script of that language.")
    alternatives: list[LanguageGuess] = Field(description="Up to three candidates, most likely first.")


class LanguageInfo(BaseModel):
    """A supported language."""

    code: Language = Field(description="ISO 639-1 code.")
    name: str = Field(description="The language's name in the display language.")
    native_name: str = Field(description="The language's name in itself.")
    script: Script = Field(description="ISO 15924 script.")
    supports_romanization: bool = Field(description="Whether romanize_text accepts it.")
    countries: list[Country] = Field(description="Countries of the world's cities where it is the local language.")
    cities: list[City] = Field(description="The world's cities where it is the local language.")


class LanguageList(BaseModel):
    """The supported languages (v2 ``languages``)."""

    display_language: Language = Field(description="The language the names are given in.")
    languages: list[LanguageInfo] = Field(description="Every supported language, by code.")


class Romanization(BaseModel):
    """A text in Latin letters (v3 ``romanizations[]`` item)."""

    romanized_text: Text = Field(description="The text written in Latin letters.")
    source_language: Language = Field(description="The language of the text (given or detected).")
    detected_source_language: Language | None = Field(description="The detected language; only when none was given.")


# -- checks ------------------------------------------------------------------------------


def _check_language(code: str, field: str, what: str) -> None:
    if code not in LANGUAGES:
        raise RuleViolation(
            f"{what} language {code!r} is not supported",
            field=field,
            hint=f"supported languages: {', '.join(LANGUAGES)} (see list_languages)",
        )


def _check_text(text: str, field: str) -> None:
    if not text.strip():
        raise RuleViolation("the text to translate is empty", field=field, hint="send the text to translate")


def _translate(ctx: Ctx, text: str, target: str, source: str | None, fmt: str, field: str) -> Translation:
    detected = None
    if source is None:
        guesses = _detect(ctx, text)
        if not guesses:
            raise RuleViolation(
                "the language of the text could not be detected",
                field=field,
                hint="name the source language, or send text with words in it",
            )
        src = detected = guesses[0][0]
    else:
        src = source
        if src == target:
            raise RuleViolation(
                f"the target language {target!r} is the same as the source language",
                field="target",
                hint="choose a target language other than the source",
            )
    pieces = _parse(ctx, text, src, fmt == "html")
    translated = text if src == target else _render(pieces, src, target)
    return Translation(
        translated_text=translated,
        source_language=src,
        detected_source_language=detected,
        target_language=target,
        model="nmt",
        billed_characters=len(text),
        untranslated_terms=_kept_terms(pieces),
    )


def _display_name(code: str, display: str) -> str:
    form = LEXICON[LANGUAGE_KEYS[code]].forms[display]
    return form[:1].upper() + form[1:]


# -- tools -------------------------------------------------------------------------------

TextFormat = Literal["text", "html"]
Texts = Annotated[list[Text], Field(min_length=1, max_length=MAX_BATCH_TEXTS)]


def _example_text(ctx: Ctx) -> dict[str, Any]:
    pop = ctx.population
    person, company = pop.contacts[0], pop.customers[0]
    return {
        "text": f"Hello {person.first_name}, the invoice for {company.name} is ready. Thank you!",
        "target": "de",
    }


def _example_batch(ctx: Ctx) -> dict[str, Any]:
    pop = ctx.population
    return {
        "texts": [f"Good morning {pop.contacts[0].first_name}!", "The meeting is tomorrow.", "Best regards"],
        "target": "fr",
        "source": "en",
    }


def _example_detect(ctx: Ctx) -> dict[str, Any]:
    return {"text": f"Guten Morgen {ctx.population.contacts[0].first_name}, die Rechnung ist bereit."}


_example_romanize = fixed_example(text="Спасибо, встреча завтра.", source="ru")


@service.tool(intent="translate the text into another language", open_world=True, example=_example_text)
def translate_text(
    ctx: Ctx, text: Text, target: Language, source: Language | None = None, format: TextFormat = "text"
) -> Translation:
    """Translate a text into another language (v2 ``POST /language/translate/v2``).

    Names of people, companies, cities and products, other capitalised names,
    numbers, amounts, codes, e-mail addresses and URLs are kept verbatim.
    Without a source language the text's language is detected first; a text
    already in the target language comes back unchanged.

    Args:
        text: The text to translate.
        target: ISO 639-1 code of the language to translate into.
        source: ISO 639-1 code of the text's language; omit to detect it.
        format: text for plain text; html to keep markup tags and entities untouched.
    """
    _check_language(target, "target", "target")
    if source is not None:
        _check_language(source, "source", "source")
    _check_text(text, "text")
    return _translate(ctx, text, target, source, format, "text")


@service.tool(intent="translate these texts into another language", open_world=True, example=_example_batch)
def translate_batch(
    ctx: Ctx, texts: Texts, target: Language, source: Language | None = None, format: TextFormat = "text"
) -> BatchTranslation:
    """Translate up to 128 texts into one language in a single request (v3 ``translateText`` contents).

    The texts together may hold at most 30,000 characters. Each text's language
    is detected on its own when no source language is given.

    Args:
        texts: The texts to translate, 1 to 128 of them.
        target: ISO 639-1 code of the language to translate into.
        source: ISO 639-1 code of the texts' language; omit to detect each text's language.
        format: text for plain text; html to keep markup tags and entities untouched.
    """
    _check_language(target, "target", "target")
    if source is not None:
        _check_language(source, "source", "source")
    total = sum(len(t) for t in texts)
    if total > MAX_BATCH_CHARACTERS:
        raise RuleViolation(
            f"the texts hold {total} characters; a request may hold at most {MAX_BATCH_CHARACTERS}",
            field="texts",
            hint="split the texts over several requests",
        )
    for n, text in enumerate(texts):
        _check_text(text, f"texts.{n}")
    out = [_translate(ctx, text, target, source, format, f"texts.{n}") for n, text in enumerate(texts)]
    return BatchTranslation(translations=out, target_language=target, billed_characters=total)


@service.tool(intent="find out which language the text is in", open_world=True, example=_example_detect)
def detect_language(ctx: Ctx, text: Text) -> Detection:
    """Detect the language of a text (v2 ``POST /language/translate/v2/detect``).

    Uses the text's script, its common words and its accented letters; names,
    numbers, e-mail addresses and URLs are ignored.

    Args:
        text: The text whose language to detect.
    """
    guesses = _detect(ctx, text)
    if not guesses:
        raise RuleViolation(
            "no language could be detected: the text has no words in a supported script",
            field="text",
            hint=f"send text in one of: {', '.join(LANGUAGES)}",
        )
    best, confidence = guesses[0]
    return Detection(
        language=best,
        confidence=confidence,
        is_reliable=confidence >= 0.5,
        script=SCRIPTS.get(best, "Latn"),
        alternatives=[LanguageGuess(language=lang, confidence=c) for lang, c in guesses],
    )


@service.tool(intent="list the languages that can be translated", open_world=True)
def list_languages(ctx: Ctx, display_language: Language = "en") -> LanguageList:
    """List the supported languages with their names and where the world speaks them (v2 ``languages``).

    Args:
        display_language: ISO 639-1 code of the language to give the names in.
    """
    _check_language(display_language, "display_language", "display")
    places = ctx.population.places
    return LanguageList(
        display_language=display_language,
        languages=[
            LanguageInfo(
                code=code,
                name=_display_name(code, display_language),
                native_name=_display_name(code, code),
                script=SCRIPTS.get(code, "Latn"),
                supports_romanization=code in NON_LATIN,
                countries=sorted({p.country for p in places if p.language == code}),
                cities=[p.city for p in places if p.language == code],
            )
            for code in LANGUAGES
        ],
    )


def _romanize(ctx: Ctx, text: str, lang: str) -> str:
    out: list[str] = []
    for kind, tok in _tokens(ctx, text):
        if kind == "word" and _is_cyrillic(tok):
            out.append(_cyrillic_to_latin(tok))
        elif kind == "word" and _is_cjk(tok):
            segment_lang = lang if lang in CJK else ("ja" if any(_is_kana(c) for c in tok) else "zh")
            words = [
                PARTICLE_READINGS.get(p.text, _kana_to_latin(p.text)) if p.kind == "gap" else p.reading or p.text
                for p in _segment(tok, segment_lang, False)
                if p.text
            ]
            out.append(" " + " ".join(words) + " ")
        elif kind == "other":
            out.append(ASCII_PUNCT.get(tok, tok))
        else:
            out.append(tok)
    text = re.sub(r"[ ]{2,}", " ", "".join(out))
    text = re.sub(r" +([.,!?;:])", r"\1", text)
    text = re.sub(r"([.,!?;:])(?=[^\s\d.,!?;:])", r"\1 ", text)
    return "\n".join(line.strip() for line in text.split("\n"))


@service.tool(intent="write the text in Latin letters", open_world=True, example=_example_romanize)
def romanize_text(ctx: Ctx, text: Text, source: Language | None = None) -> Romanization:
    """Write Russian, Japanese or Chinese text in Latin letters (v3 ``romanizeText``).

    Russian uses scientific-style transliteration, Japanese Hepburn and
    Chinese pinyin without tone marks; names, numbers and Latin text pass through.

    Args:
        text: The text to romanize.
        source: ISO 639-1 code of the text's language (ru, ja or zh); omit to detect it.
    """
    if source is not None:
        _check_language(source, "source", "source")
    _check_text(text, "text")
    detected = None
    if source is None:
        guesses = _detect(ctx, text)
        detected = guesses[0][0] if guesses else None
    lang = source or detected
    if lang not in NON_LATIN:
        raise RuleViolation(
            f"{lang or 'this'} text is already written in Latin letters" if lang else "no language could be detected",
            field="source" if source is not None else "text",
            hint="romanize Russian (ru), Japanese (ja) or Chinese (zh) text",
        )
    return Romanization(
        romanized_text=_romanize(ctx, text, lang), source_language=lang, detected_source_language=detected
    )
