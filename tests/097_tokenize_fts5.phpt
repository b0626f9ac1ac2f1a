--TEST--
gpu_tokenize() and MATCH expressions' strings: the tokens of FTS5's unicode61 tokenizer, byte for byte, on random text of accented Latin, Greek, Cyrillic, CJK, digits, punctuation, combining diacritics, emoji and malformed UTF-8; a MATCH string with accents and capitals finds what FTS5 finds
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$code = <<<'CODE'
/* the sanitizer and valgrind runs (Zend's allocator off: USE_ZEND_ALLOC=0, and valgrind follows
 * this child) ask fewer: the same checks, on a part of the inputs */
$light = ($argv[2] ?? '') === 'light';
mt_srand(97);
function utf8(int $c): string
{
    if ($c < 0x80) return chr($c);
    if ($c < 0x800) return chr(0xC0 | $c >> 6) . chr(0x80 | $c & 0x3F);
    if ($c < 0x10000) return chr(0xE0 | $c >> 12) . chr(0x80 | $c >> 6 & 0x3F) . chr(0x80 | $c & 0x3F);
    return chr(0xF0 | $c >> 18) . chr(0x80 | $c >> 12 & 0x3F) . chr(0x80 | $c >> 6 & 0x3F) . chr(0x80 | $c & 0x3F);
}
$db = new SQLite3(':memory:');
$db->enableExceptions(true);
$db->exec('CREATE VIRTUAL TABLE t USING fts5(x)');
$db->exec("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
/* pieces of text: every kind of code point unicode61 tells apart, and bytes that are not UTF-8 */
$pieces = ['a', 'Z', '7', ' ', ',', '.', '-', '_', "'", '"', "\t", "\n", 'é', 'É', 'ñ', 'ß', 'ø', 'Å', 'œ', 'ǅ', 'ẞ', 'İ', 'ı', 'ﬁ',
           'α', 'Ω', 'ά', 'ς', 'Ж', 'ё', 'Ё', 'ї', '中', '文', 'の', 'ア', '한', 'ا', 'ש', 'क', '٣', '²', '½', 'Ⅻ',
           "\u{0301}", "\u{0308}", "\u{0327}", "\u{20DD}", "\u{00A0}", "\u{2003}", "\u{200B}", "\u{2014}", '«', '»', '€', '©',
           "\u{1F600}", "\u{1D400}", "\u{E000}", "\u{10FFFD}", "\u{FFFD}", "\u{0000}",
           "\xC3", "\x80", "\xBF", "\xC0\x80", "\xE0\x80\x80", "\xED\xA0\x80", "\xEF\xBF\xBE", "\xF4\x90\x80\x80", "\xF8\x88\x80\x80\x80", "\xFE", "\xFF", "\xC3\xA9\xA9"];
$texts = [];
for ($i = 0; $i < ($light ? 400 : 4000); $i++) {
    $s = '';
    for ($n = mt_rand(1, 24); $n > 0; $n--) $s .= $pieces[mt_rand(0, count($pieces) - 1)];
    $texts[] = $s;
}
/* every code point from U+0080 to U+2FFFF between letters, and at a text's start */
for ($c = 0x80; $c < 0x30000; $c += $light ? 61 : 1) {
    if ($c >= 0xD800 && $c <= 0xDFFF) continue;
    $texts[] = 'x' . utf8($c) . 'y ' . utf8($c) . 'q';
}
$st = $db->prepare('INSERT INTO t(rowid, x) VALUES (:r, :x)');
$db->exec('BEGIN');
foreach ($texts as $i => $s) {
    $st->bindValue(':r', $i + 1, SQLITE3_INTEGER);
    $st->bindValue(':x', $s, SQLITE3_BLOB);   /* as bytes: SQLite reads them as its text */
    $st->execute();
}
$db->exec('COMMIT');
$want = array_fill(0, count($texts), []);
$r = $db->query('SELECT doc, term FROM v ORDER BY doc, offset');
while ($row = $r->fetchArray(SQLITE3_NUM)) $want[$row[0] - 1][] = $row[1];
$bad = 0;
foreach ($texts as $i => $s) {
    $got = gpu_tokenize($s);
    if ($got !== $want[$i] && $bad++ < 5) echo bin2hex($s), ": fts5 ", json_encode(array_map('bin2hex', $want[$i])), " gpupost ", json_encode(array_map('bin2hex', $got)), "\n";
}
echo $bad ? "FAILED $bad\n" : "all " . (count($texts) == ($light ? 3588 : 198432) ? 'the' : 'only ' . count($texts) . ' of the') . " texts tokenized as FTS5 tokenizes them\n";

/* MATCH strings are tokenized the same way: an index of FTS5's own tokens of some texts, queried
 * with accented, capitalized and punctuated strings, finds FTS5's rows */
$docs = ['Ceci est un café très naïve', 'Über die Straße', 'ΕΛΛΗΝΙΚΆ και ελληνικά', 'Москва и МОСКВА', '中文 文字', 'l\'été à Paris'];
$lists = [];
$db->exec('DELETE FROM t');
foreach ($docs as $d => $text) {
    foreach (gpu_tokenize($text) as $p => $tok) $lists[$tok][$d][] = $p + 1;
    $db->exec("INSERT INTO t(rowid, x) VALUES (" . ($d + 1) . ", '" . SQLite3::escapeString($text) . "')");
}
$ix = new GpuPost\Index($lists, GPUPOST_POSTINGS);
$same = 0;
$queries = ['CAFÉ', 'cafe', 'NAÏVE', 'strasse', 'STRAßE', 'über', 'ελληνικά', 'ΕΛΛΗΝΙΚΆ', 'москва', '"Москва и"', '中文', 'ete', 'L\'ÉTÉ', 'l été', '"été à paris"', 'Paris NOT été'];
foreach ($queries as $q) {
    try {
        $r = $db->query("SELECT rowid - 1 FROM t WHERE t MATCH '" . SQLite3::escapeString($q) . "' ORDER BY rowid");
        $w = [];
        while ($row = $r->fetchArray(SQLITE3_NUM)) $w[] = $row[0];
    } catch (Exception $e) {
        $w = 'error';
    }
    try {
        $g = $ix->search($q);
    } catch (ValueError $e) {
        $g = 'error';
    }
    if ($g === $w) $same++;
    else echo "$q: fts5 ", json_encode($w), " gpupost ", json_encode($g), "\n";
}
echo "$same of ", count($queries), " MATCH strings with accents and capitals find FTS5's rows\n";
CODE;
[$out, $rc] = gp_child($code, (extension_loaded('sqlite3') ? [] : ['extension' => getenv('GPUPOST_TEST_SQLITE3') ?: 'sqlite3']) + ['memory_limit' => '1G'], 'host', ['', getenv('USE_ZEND_ALLOC') === '0' ? 'light' : 'full']);
echo $out, "\n";
?>
--EXPECT--
all the texts tokenized as FTS5 tokenizes them
16 of 16 MATCH strings with accents and capitals find FTS5's rows
