--TEST--
GpuPost\Index bad input: malformed blobs name their term, wrong types and options, unknown terms, empty and huge queries, thousands of queries, answers past memory_limit and gpupost.max_result_bytes
--EXTENSIONS--
gpupost
--INI--
memory_limit=1G
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
function attempt(callable $f): void {
    try { $r = $f(); echo is_array($r) ? 'array(' . count($r) . ')' : var_export($r, true), "\n"; }
    catch (Throwable $e) { echo get_class($e), ": ", $e->getMessage(), "\n"; }
}
$ok = gpu_encode_postings([3 => [1, 2], 9 => [4]], GPUPOST_MOD9, GPUPOST_POSTINGS);
attempt(fn() => new GpuPost\Index(['good' => $ok, 'bad' => "\x00\x00\x00\x01\xff"]));
attempt(fn() => new GpuPost\Index(['good' => gpu_encode_postings([1, 2], GPUPOST_S9), 'odd' => gpu_encode_postings([5, 3], GPUPOST_S9)], GPUPOST_S9));
/* docs past 2^32 - 1 (S9 with the delta rule sums past it), and equal docs in a row (one doc) */
attempt(fn() => new GpuPost\Index(['wide' => gpu_encode_postings(range(0, 33 << 27, 1 << 27), GPUPOST_S9, GPUPOST_VALUES, ['delta' => 1])], GPUPOST_S9));
$eq = new GpuPost\Index(['a' => gpu_encode_postings([1, 3, 3, 5], GPUPOST_S9), 'b' => gpu_encode_postings([3, 5], GPUPOST_S9)], GPUPOST_S9);
echo json_encode($eq->search(['a'])), ' ', json_encode($eq->search(['a', 'b'])), ' ', $eq->info()['postings'], "\n";
attempt(fn() => new GpuPost\Index(['x' => 5]));
attempt(fn() => new GpuPost\Index(['x' => [1 => [1]], 'y' => 'blob'], GPUPOST_POSTINGS));
attempt(fn() => new GpuPost\Index(['x' => [1 => [2, 1]]], GPUPOST_POSTINGS));
attempt(fn() => new GpuPost\Index(['x' => $ok], GPUPOST_WAH));
attempt(fn() => new GpuPost\Index(['x' => $ok], GPUPOST_MOD9, ['colour' => 1]));
attempt(fn() => new GpuPost\Index(['x' => $ok], GPUPOST_MOD9, ['device' => 'gpu:7']));
attempt(fn() => new GpuPost\Index(['x' => $ok], GPUPOST_MOD9, ['device_lists' => 'zipped']));
attempt(fn() => new GpuPost\Index(['x' => $ok], GPUPOST_MOD9, ['doc_lengths' => [3 => 10]]));

/* unsorted docs in arrays are sorted for the user; an empty index answers nothing */
$ix = new GpuPost\Index(['a' => [9 => [1], 3 => [5]], 'b' => [3 => [6]], '7' => [9 => [2]]], GPUPOST_POSTINGS);
attempt(fn() => $ix->search(['a']));
attempt(fn() => $ix->search(['a', 'b'], ['op' => GPUPOST_PHRASE]));
attempt(fn() => $ix->search([7, 'a']));
attempt(fn() => $ix->search([]));
attempt(fn() => $ix->search(['nope']));
attempt(fn() => $ix->search(['nope', 'a'], ['op' => GPUPOST_OR]));
attempt(fn() => $ix->search([1.5]));
attempt(fn() => $ix->search(['a'], ['op' => 99]));
attempt(fn() => $ix->search(['a'], ['op' => '1']));
attempt(fn() => $ix->search(['a'], ['limit' => 10]));
attempt(fn() => $ix->search(['a'], ['limit' => -1]));
attempt(fn() => $ix->searchBatch([['a'], 1.5]));
attempt(fn() => $ix->count());
attempt(fn() => $ix->count(['a', 'a', 'a']));
attempt(fn() => (new GpuPost\Index([]))->search(['a'], ['op' => GPUPOST_OR]));
$s9 = new GpuPost\Index(['a' => gpu_encode_postings([1, 2], GPUPOST_S9)], GPUPOST_S9);
attempt(fn() => $s9->search(['a'], ['op' => GPUPOST_PHRASE]));
attempt(fn() => clone $ix);
attempt(fn() => serialize($ix));

/* a query of 20,000 terms, a batch of 5,000 queries */
$big = [];
for ($t = 0; $t < 300; $t++) $big["t$t"] = gpu_encode_postings(range($t, 40000, 1 + $t % 7), GPUPOST_S9);
$bx = new GpuPost\Index($big, GPUPOST_S9);
$terms = [];
for ($i = 0; $i < 20000; $i++) $terms[] = 't' . ($i % 310);
echo "huge AND: ", count($bx->search($terms)), ", huge OR: ", count($bx->search($terms, ['op' => GPUPOST_OR])), "\n";
$batch = [];
for ($q = 0; $q < 5000; $q++) $batch[] = ['t' . ($q % 300), 't' . (($q * 7) % 300)];
$r = $bx->searchBatch($batch);
echo "batch: ", count($r), " answers, first ", count($r[0]), "\n";

/* answers past the limits: refused before they are built, the index still usable */
$code = '$b = []; for ($t = 0; $t < 2; $t++) $b["t$t"] = gpu_encode_postings(range(0, 40000), GPUPOST_S9);'
      . '$ix = new GpuPost\Index($b, GPUPOST_S9);'
      . 'try { $ix->searchBatch(array_fill(0, 200, ["t0"])); echo "built\n"; } catch (GpuPost\Exception $e) { echo preg_replace("/\d+/", "N", $e->getMessage()), "\n"; }'
      . 'echo count($ix->search(["t1"])), " ", gpu_info()["last_backend"], "\n";';
foreach (['host', 'device'] as $path) {
    foreach ([['memory_limit' => '8M'], ['memory_limit' => '-1', 'gpupost.max_result_bytes' => '4M']] as $ini) {
        [$out] = gp_child($code, $ini, $path);
        echo $path === 'device' && !gp_device_available() ? str_replace('host', 'opencl', $out) : $out, "\n";
    }
}
?>
--EXPECTF--
GpuPost\Exception: MOD9: term 'bad', byte %d: %s
GpuPost\Exception: S9: term 'odd', byte 0: posting 1: doc 3 after doc 5: an index list's docs must increase
GpuPost\Exception: S9: term 'wide', byte 0: posting 32: doc 4294967296 is outside 0 .. 2^32 - 1, which an index holds
[1,3,5] [3,5] 5
TypeError: GpuPost\Index::__construct(): Argument #1 ($lists) must map terms to blobs (strings), int given for term 'x'
TypeError: GpuPost\Index::__construct(): Argument #1 ($lists) must map terms to [doc => [positions]] arrays, string given for term 'y'
ValueError: GpuPost\Index::__construct(): Argument #1 ($lists) term 'x': doc 1 cannot be encoded: positions must be strictly increasing integers >= 1, gaps below 2^28
ValueError: GpuPost\Index::__construct(): Argument #2 ($format) must be GPUPOST_MOD9, GPUPOST_S9, GPUPOST_QS or GPUPOST_POSTINGS
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) has an unknown option colour
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'device' must be auto, gpu, cpu, host or P:D
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'device_lists' must be 'auto', 'decoded' or 'compressed'
ValueError: GpuPost\Index::__construct(): Argument #3 ($options) option 'doc_lengths': doc 9 (of list 0) has no length
array(2)
array(1)
array(1)
array(0)
array(0)
array(2)
TypeError: GpuPost\Index::search(): Argument #1 ($query) must hold terms as strings, float given
ValueError: GpuPost\Index::search(): Argument #2 ($options) option 'op' must be GPUPOST_AND, GPUPOST_OR or GPUPOST_PHRASE
TypeError: GpuPost\Index::search(): Argument #2 ($options) option 'op' must be of type int, string given
ValueError: GpuPost\Index::search(): Argument #2 ($options) option 'limit' needs doc lengths: build the index with 'doc_lengths' => [doc => tokens]
ValueError: GpuPost\Index::search(): Argument #2 ($options) option 'limit' must be 0 (every match) or a positive number of best documents
TypeError: GpuPost\Index::searchBatch(): Argument #1 ($queries) must hold queries as arrays of terms, query trees or MATCH expressions, float given
3
2
array(0)
ValueError: GpuPost\Index::search(): Argument #2 ($options) option 'op' GPUPOST_PHRASE needs positions: an index of MOD9 postings or of arrays with positions
Error: Trying to clone an uncloneable object of class GpuPost\Index
Exception: Serialization of 'GpuPost\Index' is not allowed
huge AND: 0, huge OR: %d
batch: 5000 answers, first %d
the answers would need N bytes of PHP memory, more than memory_limit leaves (N)
40001 host
the answers would need N bytes, more than gpupost.max_result_bytes (N)
40001 host
the answers would need N bytes of PHP memory, more than memory_limit leaves (N)
40001 opencl
the %s would need N bytes, more than gpupost.max_result_bytes (N)
40001 opencl
