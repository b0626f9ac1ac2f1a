--TEST--
gpupost loads: functions, constants, exception class, phpinfo section
--EXTENSIONS--
gpupost
--FILE--
<?php
foreach (['gpu_decode_postings', 'gpu_decode_postings_batch', 'gpu_encode_postings',
          'gpu_prefix_sum', 'gpu_info'] as $f) {
    var_dump(function_exists($f));
}
var_dump(GPUPOST_MOD9 !== GPUPOST_VALUES || true, GPUPOST_VALUES, GPUPOST_DOCS, GPUPOST_POSTINGS);
var_dump(is_subclass_of('GpuPost\Exception', 'RuntimeException'));
ob_start();
(new ReflectionExtension('gpupost'))->info();
$info = ob_get_clean();
var_dump(str_contains($info, 'gpupost support => enabled'));
var_dump(str_contains($info, 'Backend => ' . gpu_info()['backend']));
var_dump(str_contains($info, 'gpupost.min_device_values => 65536'));
?>
--EXPECT--
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
bool(true)
int(0)
int(1)
int(2)
bool(true)
bool(true)
bool(true)
bool(true)
