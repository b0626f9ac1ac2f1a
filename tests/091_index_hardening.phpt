--TEST--
GpuPost\Index hardening, a regression test a class of bad input (docs/RELIABILITY.md): OR over empty lists; merged docs on compressed device lists; answers, slices and the doc count within memory_limit and the INI caps; index files whose sections repeat or overlap, dictionaries of colliding terms; persistent indexes known by reader and file state; save() and open() on links, FIFOs, devices, /proc, long names, stream wrappers; BM25 options and duplicate terms in files
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$dir = sys_get_temp_dir() . '/gpupost-091-' . getmypid();
@mkdir($dir);
$device = gp_device_available();
$layouts = ['host' => ['device' => 'host']];
if ($device) {
    $layouts['decoded'] = ['device' => 'cpu', 'device_lists' => 'decoded'];
    $layouts['compressed'] = ['device' => 'cpu', 'device_lists' => 'compressed'];
}
$msg = fn(callable $f) => preg_replace(['/\d+ bytes/', '/\(\d+\)/', '~/\S*gpupost-091-\d+~', '~/proc/\d+/~'], ['N bytes', '(N)', 'DIR', '/proc/self/'], gp_error_of($f));

/* 1. An OR (plain, counted, one-term ranked) over a term whose list is empty: an empty blob,
 * an empty array, an empty list in a saved file. */
$s9 = ['e' => gpu_encode_postings([], GPUPOST_S9), 'x' => gpu_encode_postings([1, 2, 3], GPUPOST_S9)];
$arrays = ['e' => [], 'x' => [1 => [1], 2 => [1], 3 => [2]]];
$lens = ['doc_lengths' => [1 => 4, 2 => 5, 3 => 6]];
$ok = true;
foreach ($layouts as $name => $l) {
    foreach ([[$s9, GPUPOST_S9], [$arrays, GPUPOST_POSTINGS], [$s9, GPUPOST_S9, true]] as $case) {
        $ix = new GpuPost\Index($case[0], $case[1], $l + $lens);
        if (isset($case[2])) {
            $ix->save("$dir/empty.idx");
            $ix = GpuPost\Index::open("$dir/empty.idx", $l);
        }
        $ok = $ok && $ix->search(['e'], ['op' => GPUPOST_OR]) === [] && $ix->search(['e', 'x'], ['op' => GPUPOST_OR]) === [1, 2, 3]
            && $ix->count(['e'], ['op' => GPUPOST_OR]) === 0 && $ix->search(['e'], ['op' => GPUPOST_OR, 'limit' => 3]) === []
            && array_keys($ix->search(['e', 'x', 'e'], ['op' => GPUPOST_OR, 'limit' => 3])) === [1, 2, 3]
            && $ix->search(['e', 'x']) === [] && $ix->searchBatch([['e'], ['x', 'e']], ['op' => GPUPOST_OR]) === [[], [1, 2, 3]];
    }
}
echo "1. OR over empty lists: ", $ok ? "right" : "WRONG", "\n";

/* 2. Lists whose decode merges equal docs (two postings of one doc in a row), the device keeping
 * them compressed: phrases and ranked queries as the host answers them. */
$e = fn($p) => gpu_encode_postings($p, GPUPOST_MOD9, GPUPOST_POSTINGS, ['combined' => false]);
$merged = [
    'a' => $e([1 => [1, 3]]) . $e([1 => [2]]) . $e([4 => [1, 2], 6 => [5]]),
    'b' => $e([1 => [2, 4], 4 => [3], 6 => [6]]),
    'c' => $e([1 => [5], 4 => [9], 6 => [1]]) . $e([6 => [7]]),
];
$mlen = ['doc_lengths' => [1 => 10, 4 => 12, 6 => 9]];
$want = null;
$ok = true;
foreach ($layouts as $name => $l) {
    $ix = new GpuPost\Index($merged, GPUPOST_MOD9, $l + $mlen);
    $got = [$ix->searchBatch([['a', 'b'], ['b', 'a'], ['c', 'c'], ['a', 'b', 'c']], ['op' => GPUPOST_PHRASE]),
            $ix->search(['a', 'b'], ['limit' => 3]), $ix->search(['a', 'c'], ['op' => GPUPOST_OR, 'limit' => 3]),
            $ix->search(['c', 'a', 'c'], ['op' => GPUPOST_OR, 'limit' => 2])];
    $want ??= $got;
    $ok = $ok && $got[0] === $want[0] && array_keys($got[1]) === array_keys($want[1]) && close_to($got[2], $want[2]) && close_to($got[3], $want[3]);
}
/* the host against the definitions: a's doc 1 holds 1, 2, 3 (b 2, 4; c 5), doc 6 a 5, b 6, c 1, 7 */
echo "2. merged docs, compressed device lists: ", $ok && $want[0] === [[1, 4, 6], [1], [], [1, 6]] ? "right" : "WRONG " . json_encode($want), "\n";

/* 3. The budget counts what is built. In children, answers that pass the room left are a
 * GpuPost\Exception, never PHP's fatal error: a ranked answer (a hash, not a packed list),
 * answers built on a fragmented heap, slices of a batch together. */
$ranked = '$n = (int)$argv[1]; $l = range(0, $n - 1);
/* shorter docs score higher: the best come last-doc first, and the answer is a hash */
$ix = new GpuPost\Index(["t" => gpu_encode_postings($l, GPUPOST_S9)], GPUPOST_S9, ["doc_lengths" => array_map(fn($d) => 1 + $n - $d, $l), "device" => "host"]);
unset($l);
/* a fragmented heap: half of many small strings freed */
$junk = []; for ($i = 0; $i < 300000; $i++) $junk[] = str_repeat("x", 90); for ($i = 0; $i < 300000; $i += 2) unset($junk[$i]);
foreach ([1000, 10000, 100000, 200000, 300000, 400000] as $k) {
    try { $r = $ix->search(["t"], ["op" => GPUPOST_OR, "limit" => $k]); if (count($r) !== $k) { echo "wrong\n"; exit; } unset($r); }
    catch (GpuPost\Exception $e) { echo "refused at $k: ", preg_replace("/\d+/", "N", $e->getMessage()), "\n"; exit; }
}
echo "never refused\n";';
[$out, $rc] = gp_child($ranked, ['memory_limit' => '64M'], 'host', [400000]);
echo "3a. ranked answers past memory_limit: ", $out, " (exit $rc)\n";
/* sparse docs (odd ones): PHP would start the answer packed and convert it to a hash of twice
 * the table; and a batch keyed by odd ints likewise */
$odd = '$n = 300000; $ix = new GpuPost\Index(["b" => gpu_encode_postings(range(1, 2 * $n - 1, 2), GPUPOST_S9)], GPUPOST_S9, ["doc_lengths" => array_fill(0, 2 * $n, 7), "device" => "host"]);
$one = new GpuPost\Index(["a" => [1 => [1]]], GPUPOST_POSTINGS, ["device" => "host"]);
try { $r = $argv[1] === "batch" ? $one->searchBatch(array_fill_keys(range(1, 2 * 200000 - 1, 2), ["a"])) : $ix->search(["b"], ["op" => GPUPOST_OR, "limit" => $n]); echo "ok"; }
catch (GpuPost\Exception $e) { echo "refused"; }';
$seen = [];
foreach (['ranked' => ['36M', '40M', '44M', '48M'], 'batch' => ['64M', '72M', '80M']] as $what => $limits) {
    foreach ($limits as $ml) {
        [$out, $rc] = gp_child($odd, ['memory_limit' => $ml], 'host', [$what]);
        $seen[] = in_array($out, ['ok', 'refused'], true) && $rc === 0 ? $out : "FATAL at $what $ml: $out";
    }
}
echo "    sparse docs and keys: ", implode(', ', array_unique(array_filter($seen, fn($x) => $x !== 'ok' && $x !== 'refused'))) ?: 'an answer or an exception at every limit', "\n";
$slices = '$w = gpu_encode_postings(array_fill_keys(range(0, 999), [1, 2, 3, 4, 5]), GPUPOST_MOD9, GPUPOST_POSTINGS);
$req = array_fill(0, 600, [0, strlen($w) - 4, 1000]);
try { $r = gpu_postings_slice_batch($w, $req); echo count($r), " slices\n"; }
catch (GpuPost\Exception $e) { echo "refused: ", preg_replace("/\d+/", "N", $e->getMessage()), "\n"; }';
[$out, $rc] = gp_child($slices, ['memory_limit' => '64M'], 'host');
echo "3b. a batch of slices past memory_limit: ", $out, " (exit $rc)\n";
[$out, $rc] = gp_child($slices, ['memory_limit' => '-1', 'gpupost.max_result_bytes' => '32M'], 'host');
echo "3c. a batch of slices past gpupost.max_result_bytes: ", $out, " (exit $rc)\n";
/* a batch's own array and a query's bookkeeping are PHP memory too, checked before they are
 * taken: a decode batch of 200,000 string keys, a batch of 4,000,000 queries, a query of
 * 4,000,000 terms, each under a memory_limit it cannot fit */
$batch = '$what = $argv[1]; $pad = str_repeat("x", (int)$argv[2]);
$ix = new GpuPost\Index(["a" => [1 => [1]]], GPUPOST_POSTINGS, ["device" => "host"]);
try {
    if ($what === "decode") { $b = gpu_encode_postings([7 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS); $q = []; for ($i = 0; $i < 200000; $i++) $q["k$i"] = $b; gpu_decode_postings_batch($q, GPUPOST_MOD9, GPUPOST_POSTINGS); }
    elseif ($what === "queries") $ix->searchBatch(array_fill(0, 4000000, ["zz"]));
    else $ix->search(array_fill(0, 4000000, "a"));
    echo "ok";
} catch (GpuPost\Exception $e) { echo "refused"; }';
$seen = [];
foreach ([['decode', '26M', 0], ['decode', '30M', 0], ['queries', '128M', 0], ['terms', '128M', 50000000]] as [$what, $ml, $pad]) {
    [$out, $rc] = gp_child($batch, ['memory_limit' => $ml], 'host', [$what, $pad]);
    $seen[] = in_array($out, ['ok', 'refused'], true) && $rc === 0 ? 'fine' : "FATAL at $what $ml: $out";
}
echo "    batches and bookkeeping: ", implode(', ', array_unique($seen)), "\n";

/* the doc count of an index whose docs are sparse: one posting of doc 2^32 - 1 (a bitmap by
 * the largest doc would take 512 MiB, outside every limit) */
$sparse = '$before = getrusage()["ru_maxrss"];
$ix = new GpuPost\Index(["far" => gpu_encode_postings([0, 0xFFFFFFFF], GPUPOST_QS), "near" => gpu_encode_postings([5, 0xFFFFFFFF], GPUPOST_QS)], GPUPOST_QS);
echo $ix->info()["docs"], " docs, ", (getrusage()["ru_maxrss"] - $before) < 65536 ? "under 64 MiB more" : "MORE", "\n";';
[$out, $rc] = gp_child($sparse, ['gpupost.max_result_bytes' => '64M'], 'host');
echo "3d. the doc count of sparse docs: ", $out, "\n";

/* 4. An index file whose section table repeats and overlaps entries (checksums made right;
 * version 1, whose reader checksums every section; tests/094 crafts version 2's):
 * refused before its sections are checksummed again and again. */
function fix_file(string $f): string {
    $n = unpack('V', $f, 44)[1];
    $f = substr_replace($f, pack('V', crc32(substr($f, 64, 24 * $n))), 48, 4);
    return substr_replace($f, pack('V', crc32(substr($f, 0, 60))), 60, 4);
}
$big = new GpuPost\Index(['t' => gpu_encode_postings(range(0, 200000), GPUPOST_S9)], GPUPOST_S9);
$big->save("$dir/big.idx", ['version' => 1]);
$f = file_get_contents("$dir/big.idx");
$n = unpack('V', $f, 44)[1];
$table = substr($f, 64, 24 * $n);
$copies = 20000;   /* the lists' bytes, named again and again under an id readers skip */
$shift = 24 * $copies;
$fixed = '';
for ($i = 0; $i < $n; $i++) {   /* the real entries, moved past the longer table */
    $e = substr($table, 24 * $i, 24);
    $fixed .= substr_replace($e, pack('P', unpack('P', $e, 8)[1] + $shift), 8, 8);
}
$body = substr($f, 64 + 24 * $n);
$lists = unpack('P', $table, 24 * 3 + 8)[1] + $shift;
$entries = str_repeat(pack('V', 9) . substr(substr_replace(substr($table, 24 * 3, 24), pack('P', $lists), 8, 8), 4), $copies);
$crafted = fix_file(substr_replace(substr($f, 0, 64), pack('V', $n + $copies), 44, 4) . $fixed . $entries . $body);
file_put_contents("$dir/repeat.idx", $crafted);
$t = microtime(true);
echo "4. sections repeated: ", $msg(fn() => GpuPost\Index::open("$dir/repeat.idx")), "\n";
echo "   refused before the bytes were checksummed again: ", microtime(true) - $t < 5 ? "yes" : "NO", "\n";
$over = fix_file(substr_replace($f, pack('P', unpack('P', $table, 8)[1] + 8), 64 + 24 * 1 + 8, 8));
file_put_contents("$dir/over.idx", $over);
echo "   sections overlapping: ", $msg(fn() => GpuPost\Index::open("$dir/over.idx")), "\n";
$reserved = fix_file(substr_replace($f, "\x01", 55, 1));
file_put_contents("$dir/reserved.idx", $reserved);
echo "   reserved bytes: ", $msg(fn() => GpuPost\Index::open("$dir/reserved.idx")), "\n";

/* a dictionary of terms chosen to collide under an unkeyed hash (FNV-1a's low bits): the hash is
 * keyed, so the build and open() stay linear */
$n = 80000;
$h32 = function (string $s): int { $h = 0x739d0383; for ($i = 0, $l = strlen($s); $i < $l; $i++) { $h ^= ord($s[$i]); $h = ($h * 0x1b3) & 0xFFFFFFFF; } return $h; };
$flood = [];
for ($i = 0; count($flood) < $n; $i++) if (($h32($t = pack('V', $i)) & 262143) < 4096) $flood[$t] = '';
$t = microtime(true);
$fx = new GpuPost\Index($flood, GPUPOST_MOD9, ['device' => 'host']);
$fx->save("$dir/flood.idx");
$fx = GpuPost\Index::open("$dir/flood.idx", ['device' => 'host']);
$found = 0;
foreach (array_slice(array_keys($flood), -2000) as $term) $found += $fx->count([$term], ['op' => GPUPOST_OR]) === 0;
echo "   terms chosen to collide: ", count($fx), " terms, ", $found, " looked up, built and opened ", microtime(true) - $t < 10 ? "in linear time" : "SLOWLY", "\n";
echo "   a term of any bytes named: ", $msg(fn() => new GpuPost\Index(["a\0b\xff" => 'xyz'], GPUPOST_S9)), "\n";
echo "   a long term of such bytes: ", $msg(fn() => new GpuPost\Index([str_repeat("\x01", 100) => [1 => [3, 2]]], GPUPOST_POSTINGS)), "\n";

/* 5. Persistent indexes: known by the reader that loaded them and by the file's state (a Yioop
 * shard kept by openYioopShard(): tests/092, which needs zlib for Yioop's data). */
copy("$dir/big.idx", "$dir/same.idx");
$a = GpuPost\Index::open("$dir/same.idx", ['persistent' => true]);
echo "5. openYioopShard() of a file open() keeps: ", $msg(fn() => GpuPost\Index::openYioopShard("$dir/same.idx", ['persistent' => true])), "\n";
/* the file rewritten in place, same size and mtime: another index */
$mtime = filemtime("$dir/same.idx");
$other = new GpuPost\Index(['u' => gpu_encode_postings(range(0, 200000), GPUPOST_S9)], GPUPOST_S9);   /* another term, the same size */
$other->save("$dir/other.idx", ['version' => 1]);
file_put_contents("$dir/same.idx", file_get_contents("$dir/other.idx"));
touch("$dir/same.idx", $mtime);
clearstatcache();
$b = GpuPost\Index::open("$dir/same.idx", ['persistent' => true]);
echo "   a file rewritten with its size and mtime: ", filesize("$dir/same.idx") === filesize("$dir/big.idx") && !$b->info()['reused'] && count($b->search(['u'])) === 200001 ? "loaded again" : "THE OLD LISTS", "\n";
/* an index over the cap is refused without dropping the others first (in a child: the cap is
 * a system setting) */
$huge = new GpuPost\Index(['t' => gpu_encode_postings(range(0, 2000000), GPUPOST_S9)], GPUPOST_S9);
$huge->save("$dir/huge.idx", ['version' => 1]);
$cap = '$d = $argv[1];
$a = GpuPost\Index::open("$d/same.idx", ["persistent" => true]);
try { GpuPost\Index::open("$d/huge.idx", ["persistent" => true]); echo "no exception\n"; }
catch (GpuPost\Exception $e) { echo preg_replace(["/\\d+ bytes/", "/\\(\\d+\\)/", "~/\\S*gpupost-091-\\d+~"], ["N bytes", "(N)", "DIR"], $e->getMessage()), "\n"; }
echo GpuPost\Index::open("$d/same.idx", ["persistent" => true])->info()["reused"] ? "the others kept" : "THE OTHERS DROPPED", "\n";';
[$out, $rc] = gp_child($cap, ['gpupost.max_resident_bytes' => (string)(4 * $b->info()['bytes_host'])], 'host', [$dir]);
echo "   over the cap: ", str_replace("\n", "; ", $out), "\n";

/* 6. Files and paths. */
$small = new GpuPost\Index(['a' => gpu_encode_postings([1, 2], GPUPOST_S9)], GPUPOST_S9);
/* a link planted where a temporary file could be named, to a file that must not change */
file_put_contents("$dir/victim", "keep");
foreach ([getmypid(), getmypid() + 1] as $pid) @symlink("$dir/victim", "$dir/target.idx.$pid.tmp");
for ($i = 1; $i < 5; $i++) @symlink("$dir/victim", "$dir/.gpupost-" . getmypid() . "-$i.tmp");
$small->save("$dir/target.idx");
echo "6. a planted link: ", file_get_contents("$dir/victim") === "keep" && GpuPost\Index::open("$dir/target.idx")->count() === 1 ? "not followed" : "FOLLOWED", "\n";
/* a link at the target itself, and a dangling one: each replaced by the file, never written through */
symlink("$dir/victim", "$dir/linked.idx");
symlink("$dir/nowhere", "$dir/dangling.idx");
$small->save("$dir/linked.idx");
$small->save("$dir/dangling.idx");
clearstatcache();
echo "   a link at the target: ", !is_link("$dir/linked.idx") && !is_link("$dir/dangling.idx") && file_get_contents("$dir/victim") === "keep"
    && !file_exists("$dir/nowhere") && GpuPost\Index::open("$dir/linked.idx")->count() === 1 ? "replaced, not followed" : "FOLLOWED", "\n";
$small->save("file://$dir/url.idx");
echo "   file:// saved and opened: ", GpuPost\Index::open("file://$dir/url.idx")->search(['a']) === [1, 2] ? "yes" : "NO", "\n";
$name = str_repeat('n', 250);
$small->save("$dir/$name");
echo "   a name of 250 bytes: ", GpuPost\Index::open("$dir/$name")->search(['a']) === [1, 2] ? "saved and opened" : "NO", "\n";
echo "   temporary files left: ", count(glob("$dir/.gpupost-*")) - 4, "\n";
function_exists('posix_mkfifo') ? posix_mkfifo("$dir/fifo", 0600) : exec('mkfifo ' . escapeshellarg("$dir/fifo"));
echo "   a FIFO: ", $msg(fn() => GpuPost\Index::open("$dir/fifo")), "\n";
echo "   saved over a FIFO: ", $msg(fn() => $small->save("$dir/fifo")), "; still ", filetype("$dir/fifo"), "\n";
chdir($dir);
$small->save("file://localhost$dir/local.idx");
echo "   file://localhost/path: ", is_file("$dir/local.idx") && !is_dir("$dir/localhost") ? "the path" : "ELSEWHERE", "\n";
echo "   file://relative: ", $msg(fn() => $small->save("file://rel.idx")), "\n";
echo "   /dev/zero: ", $msg(fn() => GpuPost\Index::open('/dev/zero')), "\n";
echo "   a directory: ", $msg(fn() => GpuPost\Index::open($dir)), "\n";
echo "   /proc/self/status: ", $msg(fn() => GpuPost\Index::open('/proc/self/status')), "\n";
error_clear_last();
echo "   saved where no directory is: ", $msg(fn() => $small->save("$dir/none/x.idx")), "; notices: ", json_encode(error_get_last()), "\n";
echo "   opened where no file is: ", $msg(fn() => GpuPost\Index::open("$dir/none.idx")), "; notices: ", json_encode(error_get_last()), "\n";
/* a stream wrapper that knows no sizes: what save() writes through it, open() reads back */
class MemoryWrapper {
    public static array $files = [];
    public $context;
    private string $name;
    private int $at = 0;
    public function stream_open($path, $mode, $options, &$opened): bool {
        $this->name = $path;
        if ($mode[0] === 'w') self::$files[$path] = '';
        return isset(self::$files[$path]);
    }
    public function stream_write($data): int { self::$files[$this->name] .= $data; return strlen($data); }
    public function stream_read($n): string { $r = substr(self::$files[$this->name], $this->at, $n); $this->at += strlen($r); return $r; }
    public function stream_eof(): bool { return $this->at >= strlen(self::$files[$this->name]); }
}
stream_wrapper_register('gpmem', 'MemoryWrapper');
$small->save('gpmem://one');
echo "   a wrapper without stat: ", GpuPost\Index::open('gpmem://one')->search(['a']) === [1, 2] ? "saved and opened" : "NO", "\n";
echo "   a wrapper's refusal: ", $msg(fn() => GpuPost\Index::open('gpmem://none')), "\n";
error_clear_last();
echo "   a stream that is not writable: ", $msg(fn() => $small->save('data://text/plain,abc')), "; notices: ", json_encode(error_get_last()), "\n";
echo "   a URL of 5,000 bytes: ", $msg(fn() => GpuPost\Index::open('gpmem://' . str_repeat('u', 5000), ['persistent' => true])), "\n";

/* 7. Options: BM25's k1 and b where the scores stay finite, in the constructor and in files;
 * a duplicate term in a file names the rule. */
echo "7. k1 near the largest double: ", $msg(fn() => new GpuPost\Index($arrays, GPUPOST_POSTINGS, $lens + ['k1' => 1e308])), "\n";
$top = (new GpuPost\Index($arrays, GPUPOST_POSTINGS, $lens + ['k1' => 1e6]))->search(['x'], ['limit' => 3]);
echo "   k1 1e6: ", count($top) === 3 && array_sum(array_map('is_finite', $top)) === 3 ? "finite scores" : "NOT FINITE", "\n";
$ranked_ix = new GpuPost\Index($arrays, GPUPOST_POSTINGS, $lens);
$ranked_ix->save("$dir/k1.idx", ['version' => 1]);
$g = file_get_contents("$dir/k1.idx");
$gn = unpack('V', $g, 44)[1];
for ($i = 0; $i < $gn; $i++) {
    $e = substr($g, 64 + 24 * $i, 24);
    if (unpack('V', $e)[1] !== 5) continue;
    $at = unpack('P', $e, 8)[1];
    $g = substr_replace($g, pack('e', 1e308), $at, 8);
    $g = substr_replace($g, pack('V', crc32(substr($g, $at, unpack('P', $e, 16)[1]))), 64 + 24 * $i + 4, 4);
}
file_put_contents("$dir/k1.idx", fix_file($g));
echo "   k1 1e308 in a file: ", $msg(fn() => GpuPost\Index::open("$dir/k1.idx")), "\n";
$dup = new GpuPost\Index(['ab' => gpu_encode_postings([1], GPUPOST_S9), 'cd' => gpu_encode_postings([2], GPUPOST_S9)], GPUPOST_S9);
$dup->save("$dir/dup.idx", ['version' => 1]);
$d = file_get_contents("$dir/dup.idx");
$d = str_replace('abcd', 'abab', $d);
$dn = unpack('V', $d, 44)[1];
for ($i = 0; $i < $dn; $i++) {
    $e = substr($d, 64 + 24 * $i, 24);
    $at = unpack('P', $e, 8)[1];
    $d = substr_replace($d, pack('V', crc32(substr($d, $at, unpack('P', $e, 16)[1]))), 64 + 24 * $i + 4, 4);
}
file_put_contents("$dir/dup.idx", fix_file($d));
echo "   a duplicate term in a file: ", $msg(fn() => GpuPost\Index::open("$dir/dup.idx")), "\n";
echo "   an option under an int key: ", $msg(fn() => $dup->search(['ab'], [0 => 1])), "\n";
echo "   two indexes compared: ", var_export($dup == $small, true), ", one with itself: ", var_export($dup == $dup, true), "\n";

foreach (array_merge(glob("$dir/*"), glob("$dir/.gpupost-*")) as $x) @unlink($x);
@rmdir($dir);
?>
--EXPECTF--
1. OR over empty lists: right
2. merged docs, compressed device lists: right
3a. ranked answers past memory_limit: refused at %d: the answers would need N bytes of PHP memory, more than memory_limit leaves (N) (exit 0)
    sparse docs and keys: an answer or an exception at every limit
3b. a batch of slices past memory_limit: refused: the slice's arrays would need N bytes of PHP memory, more than memory_limit leaves (N) (exit 0)
3c. a batch of slices past gpupost.max_result_bytes: refused: the slice's arrays would need N bytes, more than gpupost.max_result_bytes (N) (exit 0)
    batches and bookkeeping: fine
3d. the doc count of sparse docs: 3 docs, under 64 MiB more
4. sections repeated: GpuPost\Exception: index file DIR/repeat.idx: byte %d: the sections of table entries %d and %d overlap
   refused before the bytes were checksummed again: yes
   sections overlapping: GpuPost\Exception: index file DIR/over.idx: byte %d: the sections of table entries 0 and 1 overlap
   reserved bytes: GpuPost\Exception: index file DIR/reserved.idx: byte 52: the reserved bytes 52..59 are not 0
   terms chosen to collide: 80000 terms, 2000 looked up, built and opened in linear time
   a term of any bytes named: GpuPost\Exception: S9: term 'a\x00b\xFF', byte 0: magic is not GPS9 (or the blob is shorter than its 12-byte header)
   a long term of such bytes: ValueError: GpuPost\Index::__construct(): Argument #1 ($lists) term '\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01...': doc 1 cannot be encoded: positions must be strictly increasing integers >= 1, gaps below 2^28
5. openYioopShard() of a file open() keeps: GpuPost\Exception: Yioop shard DIR/same.idx: byte %d: %s
   a file rewritten with its size and mtime: loaded again
   over the cap: the persistent index DIR/huge.idx would need N bytes, more than gpupost.max_resident_bytes (N); the others kept
6. a planted link: not followed
   a link at the target: replaced, not followed
   file:// saved and opened: yes
   a name of 250 bytes: saved and opened
   temporary files left: 0
   a FIFO: GpuPost\Exception: the index file DIR/fifo is a FIFO
   saved over a FIFO: GpuPost\Exception: cannot write the index file DIR/fifo: it is a FIFO; still fifo
   file://localhost/path: the path
   file://relative: GpuPost\Exception: the index file file://rel.idx names no absolute local path (file:///path or file://localhost/path)
   /dev/zero: GpuPost\Exception: the index file /dev/zero is a character device
   a directory: GpuPost\Exception: the index file DIR is a directory
   /proc/self/status: GpuPost\Exception: index file /proc/self/status: byte 0: not a gpupost index (the magic is not "GPUPIDX\0")
   saved where no directory is: GpuPost\Exception: cannot write the index file DIR/none/x.idx: cannot create a file in its directory: No such file or directory; notices: null
   opened where no file is: GpuPost\Exception: cannot open the index file DIR/none.idx: No such file or directory; notices: null
   a wrapper without stat: saved and opened
   a wrapper's refusal: GpuPost\Exception: GpuPost\Index::open(gpmem://none): Failed to open stream: %s
   a stream that is not writable: GpuPost\Exception: cannot write the index file data://text/plain,abc: GpuPost\Index::save(): Stream is not writable; notices: null
   a URL of 5,000 bytes: GpuPost\Exception: the index file's URL is longer than N bytes
7. k1 near the largest double: ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'k1' must be a number from 0 to 1e6
   k1 1e6: finite scores
   k1 1e308 in a file: GpuPost\Exception: index file DIR/k1.idx: byte %d: BM25's k1 1e+308 or b 0.75 is out of range (k1 0 to 1e+06, b 0 to 1)
   a duplicate term in a file: GpuPost\Exception: index file DIR/dup.idx: byte %d: term 1 repeats an earlier term
   an option under an int key: ValueError: GpuPost\Index::search(): Argument #2 ($options) has an unknown option 0
   two indexes compared: false, one with itself: true
