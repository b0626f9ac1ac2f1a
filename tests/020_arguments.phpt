--TEST--
Argument errors: ValueError for unknown formats, modes and options and out-of-range values; TypeError for wrong types
--EXTENSIONS--
gpupost
--FILE--
<?php
require __DIR__ . '/gpupost_test.inc';
$calls = [
    fn() => gpu_decode_postings('', 99),
    fn() => gpu_decode_postings('', GPUPOST_MOD9, 7),
    fn() => gpu_decode_postings_batch([''], 0),
    fn() => gpu_decode_postings([]),
    fn() => gpu_encode_postings([1], 99),
    fn() => gpu_encode_postings([1], GPUPOST_MOD9, GPUPOST_DOCS),
    fn() => gpu_encode_postings([1], GPUPOST_MOD9, GPUPOST_VALUES, ['c' => 1.0]),
    fn() => gpu_encode_postings([1], GPUPOST_MOD9, GPUPOST_VALUES, [5]),
    fn() => gpu_encode_postings([1, 0, 2]),
    fn() => gpu_encode_postings([1 << 28]),
    fn() => gpu_encode_postings([-3]),
    fn() => gpu_encode_postings([1, '2']),
    fn() => gpu_encode_postings([1, 2.0]),
    fn() => gpu_encode_postings(['a' => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([3 => 1], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([3 => [2, 2]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([3 => [0]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([3 => [5, 1]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([-1 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([(1 << 27) - 1 => [1]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([262143 => [600]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_encode_postings([3 => [1, 1 + (1 << 28)]], GPUPOST_MOD9, GPUPOST_POSTINGS),
    fn() => gpu_prefix_sum([1, 'x']),
    fn() => gpu_prefix_sum([PHP_INT_MAX, 1]),
    fn() => gpu_prefix_sum([PHP_INT_MIN, -1]),
];
foreach ($calls as $c) {
    echo gp_error_of($c), "\n";
}
?>
--EXPECT--
ValueError: gpu_decode_postings(): Argument #2 ($format) must be a GPUPOST_* format constant
ValueError: gpu_decode_postings(): Argument #3 ($mode) must be GPUPOST_VALUES, GPUPOST_DOCS or GPUPOST_POSTINGS
ValueError: gpu_decode_postings_batch(): Argument #2 ($format) must be a GPUPOST_* format constant
TypeError: gpu_decode_postings(): Argument #1 ($blob) must be of type string, array given
ValueError: gpu_encode_postings(): Argument #2 ($format) must be a GPUPOST_* format constant
ValueError: gpu_encode_postings(): Argument #3 ($mode) must be GPUPOST_VALUES or GPUPOST_POSTINGS for encoding
ValueError: gpu_encode_postings(): Argument #4 ($options) contains unknown option "c" for this format
ValueError: gpu_encode_postings(): Argument #4 ($options) contains unknown option 0 for this format
ValueError: gpu_encode_postings(): Argument #1 ($data) must hold integers from 1 to 268435455 for GPUPOST_MOD9, 0 found at position 1
ValueError: gpu_encode_postings(): Argument #1 ($data) must hold integers from 1 to 268435455 for GPUPOST_MOD9, 268435456 found at position 0
ValueError: gpu_encode_postings(): Argument #1 ($data) must hold integers from 1 to 268435455 for GPUPOST_MOD9, -3 found at position 0
TypeError: gpu_encode_postings(): Argument #1 ($data) must contain only int, string given
TypeError: gpu_encode_postings(): Argument #1 ($data) must contain only int, float given
ValueError: gpu_encode_postings(): Argument #1 ($data) must be [doc_index => [positions, ...]] with int doc indexes, "a" found
TypeError: gpu_encode_postings(): Argument #1 ($data) must map each doc index to an array of positions, int given
ValueError: gpu_encode_postings(): Argument #1 ($data) doc 3 cannot be encoded: positions must be strictly increasing integers >= 1, gaps below 2^28
ValueError: gpu_encode_postings(): Argument #1 ($data) doc 3 cannot be encoded: positions must be strictly increasing integers >= 1, gaps below 2^28
ValueError: gpu_encode_postings(): Argument #1 ($data) doc 3 cannot be encoded: positions must be strictly increasing integers >= 1, gaps below 2^28
ValueError: gpu_encode_postings(): Argument #1 ($data) doc -1 cannot be encoded: doc index must be >= 0
ValueError: gpu_encode_postings(): Argument #1 ($data) doc 134217727 cannot be encoded: doc index must be below 2^27 - 1
ValueError: gpu_encode_postings(): Argument #1 ($data) doc 262143 cannot be encoded: doc and first gap do not fit the combined form's 28 bits
ValueError: gpu_encode_postings(): Argument #1 ($data) doc 3 cannot be encoded: positions must be strictly increasing integers >= 1, gaps below 2^28
TypeError: gpu_prefix_sum(): Argument #1 ($values) must contain only int, string given
ValueError: gpu_prefix_sum(): Argument #1 ($values) running sum overflows a 64-bit integer at position 1
ValueError: gpu_prefix_sum(): Argument #1 ($values) running sum overflows a 64-bit integer at position 1
