package gen

// Fixed tables the generator draws from. Names carry accents on purpose: clients must match
// "Atletico" to "Atlético" and "Munchen" to "München".

// sportDef describes how a sport is played, which drives its schedule, scores and details.
type sportDef struct {
	id         int
	name       string
	individual bool     // EventSport: events list Result records instead of two teams
	positions  []string // squad positions, starters drawn in this order
	starters   int      // players per side in a lineup
	subs       int      // substitutes per side in a lineup
	squad      int      // players per team in detailed leagues
	maxScore   int      // a side's score is drawn in [minScore, maxScore]
	minScore   int
	minutes    int      // length of a game in minutes, for live status
	periods    []string // in-play status codes, one per equal slice of the game
	stats      []string // eventstat names
	kickoffs   []string // UTC kick-off times
	timeline   bool     // events carry goal, card and substitution timelines
	slug       string
}

var soccer = &sportDef{
	id: 102, name: "Soccer", positions: []string{"Goalkeeper", "Defender", "Defender", "Defender", "Defender", "Midfielder", "Midfielder", "Midfielder", "Forward", "Forward", "Forward"},
	starters: 11, subs: 3, squad: 18, maxScore: 4, minutes: 105, periods: []string{"1H", "1H", "HT", "2H", "2H"},
	stats:    []string{"Shots on Goal", "Shots off Goal", "Total Shots", "Blocked Shots", "Fouls", "Corner Kicks", "Offsides", "Ball Possession", "Yellow Cards", "Goalkeeper Saves", "Total passes", "Passes accurate"},
	kickoffs: []string{"12:30:00", "15:00:00", "17:30:00", "19:45:00"}, timeline: true, slug: "soccer",
}

var sports = []*sportDef{
	soccer,
	{id: 103, name: "Motorsport", individual: true, positions: []string{"Driver"}, squad: 2, minutes: 120, periods: []string{"1H"}, kickoffs: []string{"13:00:00", "14:00:00"}, slug: "motorsport"},
	{id: 104, name: "Fighting", individual: true, positions: []string{"Lightweight", "Welterweight", "Middleweight", "Heavyweight"}, squad: 4, minutes: 240, periods: []string{"1H"}, kickoffs: []string{"01:00:00", "22:00:00"}, slug: "fighting"},
	{id: 105, name: "Baseball", positions: []string{"Pitcher", "Catcher", "First Base", "Second Base", "Third Base", "Shortstop", "Left Field", "Center Field", "Right Field"},
		starters: 9, subs: 2, squad: 14, maxScore: 9, minutes: 180, periods: []string{"IN1", "IN2", "IN3", "IN4", "IN5", "IN6", "IN7", "IN8", "IN9"},
		stats: []string{"Hits", "Errors", "Home Runs", "Strikeouts", "Walks"}, kickoffs: []string{"17:05:00", "23:10:00", "02:10:00"}, slug: "baseball"},
	{id: 106, name: "Basketball", positions: []string{"Point Guard", "Shooting Guard", "Small Forward", "Power Forward", "Center"},
		starters: 5, subs: 3, squad: 11, minScore: 78, maxScore: 128, minutes: 140, periods: []string{"Q1", "Q2", "HT", "Q3", "Q4"},
		stats: []string{"Field Goals Made", "Field Goal Attempts", "3 Pointers Made", "Free Throws Made", "Rebounds", "Assists", "Steals", "Blocks", "Turnovers"}, kickoffs: []string{"00:00:00", "01:30:00", "18:00:00"}, slug: "basketball"},
	{id: 107, name: "American Football", positions: []string{"Quarterback", "Running Back", "Wide Receiver", "Wide Receiver", "Tight End", "Offensive Tackle", "Guard", "Center", "Linebacker", "Cornerback", "Safety"},
		starters: 11, subs: 3, squad: 18, maxScore: 38, minutes: 200, periods: []string{"Q1", "Q2", "HT", "Q3", "Q4"},
		stats: []string{"First Downs", "Total Yards", "Passing Yards", "Rushing Yards", "Turnovers", "Penalties"}, kickoffs: []string{"17:00:00", "20:25:00", "00:20:00"}, slug: "american_football"},
	{id: 108, name: "Ice Hockey", positions: []string{"Goalie", "Defenceman", "Defenceman", "Centre", "Left Wing", "Right Wing"},
		starters: 6, subs: 4, squad: 16, maxScore: 6, minutes: 150, periods: []string{"P1", "P2", "P3"},
		stats: []string{"Shots on Goal", "Power Plays", "Penalty Minutes", "Hits", "Faceoffs Won", "Blocked Shots"}, kickoffs: []string{"18:00:00", "23:00:00", "00:30:00"}, timeline: true, slug: "ice_hockey"},
	{id: 109, name: "Golf", individual: true, positions: []string{"Golfer"}, squad: 5, minutes: 360, periods: []string{"1H"}, kickoffs: []string{"08:00:00", "12:00:00"}, slug: "golf"},
	{id: 110, name: "Rugby", positions: []string{"Prop", "Hooker", "Lock", "Flanker", "Number 8", "Scrum Half", "Fly Half", "Centre", "Wing", "Full Back"},
		starters: 10, subs: 3, squad: 18, maxScore: 40, minutes: 100, periods: []string{"1H", "HT", "2H"},
		stats: []string{"Tries", "Conversions", "Penalties", "Tackles", "Metres Run"}, kickoffs: []string{"13:30:00", "15:00:00", "19:45:00"}, slug: "rugby"},
}

// Sports beyond the detailed ones, so the full dataset lists as many sports as the public
// service; their leagues play generic team games.
var extraSportNames = []string{"Tennis", "Cricket", "Cycling", "Australian Football", "Esports", "Volleyball", "Netball",
	"Handball", "Snooker", "Field Hockey", "Darts", "Athletics", "Badminton", "Climbing", "Equestrian", "Gymnastics",
	"Shooting", "Extreme Sports", "Table Tennis", "Multi Sports", "Watersports", "Weightlifting", "Skiing", "Skating",
	"Winter Sports", "Lacrosse", "Gaelic", "Sailing"}

// countryDef: name_fr and code as the public service lists them; region picks person names.
type countryDef struct {
	code, name, nameFR string
	region             int
	offset             int // hours from UTC for local kick-off times
	cities             []string
}

const (
	regionEnglish = iota
	regionSpanish
	regionGerman
	regionBaltic
	regionFrench
	regionNordic
	regionSlavic
	regionPortuguese
	regionItalian
	regionTurkish
	regionCount
)

var countries = []countryDef{
	{"EN", "England", "Grande Bretagne", regionEnglish, 1, []string{"London", "Liverpool", "Manchester", "Leeds", "Newcastle", "Brighton", "Bristol", "Sheffield", "Nottingham", "Leicester", "Southampton", "Norwich", "Burnley", "Coventry", "Sunderland", "Ipswich", "Wolverhampton", "Bournemouth", "Fulham", "Brentford"}},
	{"ES", "Spain", "Espagne", regionSpanish, 2, []string{"Madrid", "Sevilla", "Málaga", "Córdoba", "Cádiz", "León", "Almería", "Bilbao", "Valencia", "Zaragoza", "Gijón", "Logroño", "Cáceres", "Jaén"}},
	{"DE", "Germany", "Allemagne", regionGerman, 2, []string{"München", "Köln", "Düsseldorf", "Nürnberg", "Mönchengladbach", "Würzburg", "Lübeck", "Saarbrücken", "Fürth", "Osnabrück", "Dortmund", "Bremen", "Hamburg", "Leipzig"}},
	{"LT", "Lithuania", "Lituanie", regionBaltic, 3, []string{"Šiauliai", "Kaunas", "Vilnius", "Klaipėda", "Panevėžys", "Alytus", "Marijampolė", "Utena", "Jonava", "Kėdainiai"}},
	{"US", "United States", "États-Unis", regionEnglish, -5, []string{"Boston", "Chicago", "Denver", "Seattle", "Phoenix", "Dallas", "Atlanta", "Miami", "Portland", "Detroit", "Houston", "San José", "Sacramento", "Memphis", "Buffalo", "Cleveland", "Charlotte", "Nashville"}},
	{"SE", "Sweden", "Suède", regionNordic, 2, []string{"Malmö", "Göteborg", "Norrköping", "Örebro", "Jönköping", "Växjö", "Linköping", "Luleå", "Skellefteå", "Södertälje"}},
	{"FR", "France", "France", regionFrench, 2, []string{"Saint-Étienne", "Besançon", "Nîmes", "Orléans", "Angoulême", "Béziers", "Lyon", "Nantes", "Reims", "Brest", "Le Mans", "Créteil"}},
	{"IT", "Italy", "Italie", regionItalian, 2, []string{"Torino", "Milano", "Roma", "Napoli", "Bologna", "Genova", "Cagliari", "Udine", "Lecce", "Verona"}},
	{"PT", "Portugal", "Portugal", regionPortuguese, 1, []string{"Guimarães", "Famalicão", "Braga", "Porto", "Lisboa", "Setúbal", "Vizela", "Arouca"}},
	{"PL", "Poland", "Pologne", regionSlavic, 2, []string{"Łódź", "Kraków", "Gdańsk", "Poznań", "Wrocław", "Białystok", "Szczecin", "Lublin"}},
	{"CZ", "Czechia", "République tchèque", regionSlavic, 2, []string{"Plzeň", "Brno", "Olomouc", "Ostrava", "Příbram", "Jablonec", "Liberec", "Zlín"}},
	{"NO", "Norway", "Norvège", regionNordic, 2, []string{"Tromsø", "Bodø", "Ålesund", "Bergen", "Stavanger", "Trondheim", "Lillestrøm", "Molde"}},
	{"TR", "Turkey", "Turquie", regionTurkish, 3, []string{"İstanbul", "Eskişehir", "Gaziantep", "Konya", "İzmir", "Ankara", "Sivas", "Kayseri"}},
	{"BR", "Brazil", "Brésil", regionPortuguese, -3, []string{"São Paulo", "Goiânia", "Belém", "Maceió", "Florianópolis", "Cuiabá", "Curitiba", "Recife"}},
	{"MX", "Mexico", "Mexique", regionSpanish, -6, []string{"Querétaro", "León", "Mazatlán", "Toluca", "Mérida", "Cancún", "Puebla", "Tijuana"}},
	{"CA", "Canada", "Canada", regionFrench, -5, []string{"Montréal", "Québec", "Toronto", "Calgary", "Edmonton", "Winnipeg", "Ottawa", "Vancouver"}},
	{"GB", "United Kingdom", "Royaume-Uni", regionEnglish, 1, []string{"London", "Silverstone", "Cardiff", "Belfast"}},
	{"S2", "Scotland", "Écosse", regionEnglish, 1, []string{"Glasgow", "Edinburgh", "Aberdeen", "Dundee", "Perth", "Kilmarnock"}},
	{"AR", "Argentina", "Argentine", regionSpanish, -3, []string{"Rosario", "Córdoba", "La Plata", "Mendoza", "Tucumán", "Santa Fe"}},
	{"IN", "India", "Inde", regionEnglish, 5, []string{"Mumbai", "Kolkata", "Chennai", "Bengaluru", "Pune", "Goa"}},
	{"AU", "Australia", "Australie", regionEnglish, 10, []string{"Melbourne", "Sydney", "Perth", "Adelaide", "Brisbane", "Hobart"}},
	{"MC", "Monaco", "Monaco", regionFrench, 2, []string{"Monte-Carlo"}},
	{"DK", "Denmark", "Danemark", regionNordic, 2, []string{"Århus", "Odense", "Aalborg", "Brøndby", "Randers", "Viborg"}},
	{"NL", "Netherlands", "Pays-Bas", regionGerman, 2, []string{"Rotterdam", "Utrecht", "Groningen", "Tilburg", "Zwolle", "Heerenveen"}},
	{"BE", "Belgium", "Belgique", regionFrench, 2, []string{"Liège", "Charleroi", "Gent", "Brugge", "Mechelen", "Genk"}},
	{"AT", "Austria", "Autriche", regionGerman, 2, []string{"Wien", "Graz", "Linz", "Klagenfurt", "Innsbruck", "Sankt Pölten"}},
	{"CH", "Switzerland", "Suisse", regionGerman, 2, []string{"Zürich", "Genève", "Basel", "Luzern", "Sankt Gallen", "Neuchâtel"}},
	{"HR", "Croatia", "Croatie", regionSlavic, 2, []string{"Zagreb", "Split", "Rijeka", "Osijek", "Šibenik", "Varaždin"}},
	{"RS", "Serbia", "Serbie", regionSlavic, 2, []string{"Beograd", "Novi Sad", "Niš", "Čačak", "Subotica", "Kragujevac"}},
	{"JP", "Japan", "Japon", regionEnglish, 9, []string{"Tokyo", "Osaka", "Nagoya", "Sapporo", "Kobe", "Fukuoka"}},
	{"CL", "Chile", "Chili", regionSpanish, -3, []string{"Santiago", "Valparaíso", "Concepción", "Temuco", "Antofagasta", "Rancagua"}},
	{"CO", "Colombia", "Colombie", regionSpanish, -5, []string{"Bogotá", "Medellín", "Cali", "Barranquilla", "Cúcuta", "Ibagué"}},
	{"GR", "Greece", "Grèce", regionItalian, 3, []string{"Athína", "Thessaloníki", "Pátra", "Lárisa", "Vólos", "Irákleio"}},
	{"FI", "Finland", "Finlande", regionNordic, 3, []string{"Helsinki", "Tampere", "Turku", "Oulu", "Jyväskylä", "Hämeenlinna"}},
	{"IS", "Iceland", "Islande", regionNordic, 0, []string{"Reykjavík", "Akureyri", "Kópavogur", "Hafnarfjörður"}},
	{"HU", "Hungary", "Hongrie", regionSlavic, 2, []string{"Budapest", "Debrecen", "Győr", "Pécs", "Szeged", "Kecskemét"}},
	{"RO", "Romania", "Roumanie", regionItalian, 3, []string{"București", "Cluj-Napoca", "Timișoara", "Iași", "Constanța", "Brașov"}},
	{"LV", "Latvia", "Lettonie", regionBaltic, 3, []string{"Rīga", "Liepāja", "Jelgava", "Daugavpils", "Ventspils"}},
	{"EE", "Estonia", "Estonie", regionBaltic, 3, []string{"Tallinn", "Tartu", "Pärnu", "Narva", "Viljandi"}},
	{"IE", "Ireland", "Irlande", regionEnglish, 1, []string{"Dublin", "Cork", "Galway", "Limerick", "Sligo", "Dundalk"}},
}

// channelDef is a TV channel; sports lists the sport names it shows ("" shows everything).
type channelDef struct {
	id      int
	name    string
	country string
	sports  []string
}

var channels = []channelDef{
	{2001, "Sky Sports Main Event", "United Kingdom", []string{"Soccer", "Motorsport", "Golf", "Rugby"}},
	{2002, "Sky Sports NFL", "United Kingdom", []string{"American Football"}},
	{2003, "TNT Sports 1", "United Kingdom", []string{"Soccer", "Fighting", "Rugby"}},
	{2004, "ESPN", "United States", []string{"Basketball", "American Football", "Baseball", "Ice Hockey", "Fighting"}},
	{2005, "NBC Sports", "United States", []string{"Soccer", "Golf", "Ice Hockey"}},
	{2006, "DAZN Deutschland", "Germany", []string{"Soccer", "Basketball", "Fighting"}},
	{2007, "Movistar LaLiga", "Spain", []string{"Soccer"}},
	{2008, "Canal+ Sport", "France", []string{"Soccer", "Motorsport", "Rugby"}},
	{2009, "TSN", "Canada", []string{"Ice Hockey", "Basketball", "American Football"}},
	{2010, "Disney+ Hotstar", "India", []string{"Soccer", "Motorsport"}},
	{2011, "Kayo Sports", "Australia", []string{"Soccer", "Motorsport", "Rugby", "Golf"}},
	{2012, "TV3 Sport", "Lithuania", []string{"Basketball", "Soccer"}},
	{2013, "C More Sport", "Sweden", []string{"Ice Hockey", "Soccer"}},
	{2014, "Sport TV1", "Portugal", nil},
	{2015, "beIN Sports", "Turkey", nil},
}

// Person names by region; a family name from another region now and then keeps squads varied.
var firstNames = [regionCount][]string{
	regionEnglish:    {"Jack", "Harry", "Oliver", "James", "Ben", "Callum", "Declan", "Mason", "Reece", "Tyler", "Kieran", "Jordan", "Aaron", "Conor", "Marcus", "Ethan"},
	regionSpanish:    {"Álvaro", "Sergio", "Iñaki", "Raúl", "Adrián", "Joaquín", "Andrés", "Jesús", "Rubén", "Martín", "Óscar", "Iván", "Julián", "Nicolás"},
	regionGerman:     {"Jürgen", "Lukas", "Jörg", "Maximilian", "Timo", "Björn", "Niklas", "Florian", "Leon", "Jonas", "Günther", "Matthias", "Sören"},
	regionBaltic:     {"Šarūnas", "Jonas", "Mindaugas", "Žydrūnas", "Arvydas", "Domantas", "Rokas", "Tautvydas", "Gytis", "Kęstutis", "Mantas"},
	regionFrench:     {"Théo", "Kylian", "Hugo", "Aurélien", "Jérôme", "Rémi", "Benoît", "Olivier", "Mathéo", "Loïc", "Clément", "Anaël"},
	regionNordic:     {"Søren", "Björn", "Håkan", "Mikael", "Ødegaard", "Åke", "Magnus", "Erling", "Joakim", "Jesper", "Rasmus", "Henrik"},
	regionSlavic:     {"Łukasz", "Tomáš", "Jiří", "Michał", "Wojciech", "Luka", "Dušan", "Miroslav", "Krzysztof", "Ondřej", "Ivan", "Nikola"},
	regionPortuguese: {"João", "Gonçalo", "Rúben", "Vitinha", "Otávio", "Sebastião", "Antônio", "Caio", "Thiago", "Luís", "Vinícius", "Fábio"},
	regionItalian:    {"Niccolò", "Federico", "Lorenzo", "Gianluigi", "Davide", "Matteo", "Andrea", "Nicolò", "Alessandro", "Ciro", "Simone"},
	regionTurkish:    {"Çağlar", "Hakan", "Arda", "Ferdi", "İlkay", "Oğuzhan", "Barış", "Emre", "Kerem", "Mert", "Yusuf"},
}

var lastNames = [regionCount][]string{
	regionEnglish:    {"Walker", "Stones", "Henderson", "Barnes", "Lowe", "Fletcher", "Harris", "Ward", "Morgan", "Bennett", "Palmer", "Gibbs", "Shaw", "Pope", "Archer", "Doyle"},
	regionSpanish:    {"Muñoz", "Peña", "Gómez", "Sánchez", "Martínez", "Rodríguez", "Fernández", "Ibáñez", "Pérez", "Núñez", "Suárez", "Jiménez", "Álvarez"},
	regionGerman:     {"Müller", "Schäfer", "Köhler", "Großmann", "Brückner", "Weiß", "Krämer", "Schröder", "Hofmann", "Götze", "Wöber", "Lämmel"},
	regionBaltic:     {"Jasikevičius", "Sabonis", "Kuzminskas", "Valančiūnas", "Motiejūnas", "Kalnietis", "Sirvydis", "Grigonis", "Žukauskas", "Butkevičius"},
	regionFrench:     {"Lefèvre", "Girard", "Müller-Noël", "Dupré", "Bélanger", "Lemaître", "Fournier", "Chevalier", "Gagné", "Hébert", "Leroux"},
	regionNordic:     {"Ødegaard", "Håland", "Sørensen", "Lindström", "Åberg", "Bjørnstad", "Nyström", "Ekström", "Kjær", "Højlund", "Forsberg"},
	regionSlavic:     {"Lewandowski", "Szczęsny", "Dvořák", "Novák", "Modrić", "Vlahović", "Kowalczyk", "Černý", "Jovanović", "Wiśniewski", "Souček"},
	regionPortuguese: {"Conceição", "Gonçalves", "Magalhães", "Simões", "Araújo", "Guimarães", "Brandão", "Falcão", "Lourenço", "Sebastião"},
	regionItalian:    {"Bonucci", "Chiesa", "Barella", "Bastoni", "Locatelli", "Di Lorenzo", "Pellegrini", "Zaniolo", "Esposito", "Tonali"},
	regionTurkish:    {"Çalhanoğlu", "Gündoğan", "Yılmaz", "Kökçü", "Akgün", "Çelik", "Aktürkoğlu", "Özcan", "Güler", "Kahveci"},
}

// Parts of synthetic place names for the larger scales.
var syllables = []string{"va", "lo", "mar", "ten", "ri", "kó", "sa", "bel", "dor", "an", "ör", "ka", "lis", "ne", "ha", "vé", "mo", "ru", "šta", "gen", "ló", "ber", "ia", "no", "ste", "brü", "ca"}

var teamPrefixes = map[int][]string{
	regionEnglish:    {""},
	regionSpanish:    {"Atlético ", "Real ", "CD ", "Deportivo ", "UD "},
	regionGerman:     {"FC ", "SV ", "VfB ", "TSV ", "1. FC "},
	regionBaltic:     {"BC ", "FK ", ""},
	regionFrench:     {"AS ", "Stade ", "Olympique ", "RC "},
	regionNordic:     {"IF ", "", "IK "},
	regionSlavic:     {"FK ", "Dinamo ", "Slavia ", ""},
	regionPortuguese: {"SC ", "Sporting ", "CD ", "Vitória "},
	regionItalian:    {"AC ", "US ", "", "Atletico "},
	regionTurkish:    {"", "", ""},
}

var teamSuffixes = map[int][]string{
	regionEnglish:    {" United", " City", " Rovers", " Athletic", " Town", " Wanderers", " Albion", " FC"},
	regionSpanish:    {"", " CF", ""},
	regionGerman:     {"", " 04", " 1860"},
	regionBaltic:     {"", " Žalgiris", " Rytas"},
	regionFrench:     {"", " FC", ""},
	regionNordic:     {" FF", " BK", " IF"},
	regionSlavic:     {"", " KS", ""},
	regionPortuguese: {"", " FC", ""},
	regionItalian:    {" Calcio", "", " 1909"},
	regionTurkish:    {"spor", " SK", " Belediyespor"},
}

var nicknames = []string{"Lions", "Eagles", "Hawks", "Wolves", "Bears", "Falcons", "Storm", "Kings", "Knights", "Pirates", "Rangers", "Titans", "Comets", "Bulls", "Sharks", "Stars"}

var colours = []string{"#EF0107", "#FFFFFF", "#013373", "#C8102E", "#00B2A9", "#F6EB61", "#132257", "#6CABDD", "#FDB913", "#241F20", "#7A263A", "#1B458F", "#034694", "#DA291C", "#FBEE23", "#00A650"}

var usernames = []string{"zag", "smudgie", "Aussie_Boy", "Lucho", "ChrisB", "marcel", "Sheffield", "thesportsdb"}
