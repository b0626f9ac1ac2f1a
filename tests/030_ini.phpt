--TEST--
INI: gpupost.min_device_values (ALL, >= 0), gpupost.max_result_bytes (ALL, > 0), gpupost.max_cached_bytes (ALL, >= 0) parse strictly and show in gpu_info(); gpupost.device (SYSTEM)
--EXTENSIONS--
gpupost
--INI--
gpupost.min_device_values=1000
gpupost.max_result_bytes=512M
gpupost.max_cached_bytes=0
--FILE--
<?php
$i = gpu_info();
$device = ini_get('gpupost.device');
var_dump($i['ini']['gpupost.min_device_values'], $i['ini']['gpupost.device'] === $device);
var_dump($i['ini']['gpupost.max_result_bytes'], $i['ini']['gpupost.max_cached_bytes']);
/* negatives, other bases, overflows and junk are refused in every notation, the value kept */
$bad = ['-5', '-0x10', '-0b1', '0x10', '1e3', ' 5', '5 ', '', '99999999999999999999',
        '9223372036854775808', '18446744073709551616', '12abc', '+7', '1K', '-1'];
foreach ($bad as $v) {
    $r = @ini_set('gpupost.min_device_values', $v);
    if ($r !== false || ini_get('gpupost.min_device_values') !== '1000' || gpu_info()['ini']['gpupost.min_device_values'] !== 1000) {
        echo "min_device_values accepted '$v'\n";
    }
}
$badSizes = ['-1', '0', '-0x10', '0x10', '1T', '1.5G', 'G', '9223372036854775807K', '8589934592G', '1 G', 'abc'];
foreach ($badSizes as $v) {
    $r = @ini_set('gpupost.max_result_bytes', $v);
    if ($r !== false || gpu_info()['ini']['gpupost.max_result_bytes'] !== 512 << 20) {
        echo "max_result_bytes accepted '$v'\n";
    }
}
var_dump(@ini_set('gpupost.max_cached_bytes', '-1'), gpu_info()['ini']['gpupost.max_cached_bytes']);
/* and the refusal says why */
ini_set('gpupost.min_device_values', '-0x10');
var_dump(ini_set('gpupost.min_device_values', '0'));
var_dump(gpu_info()['ini']['gpupost.min_device_values']);
var_dump(ini_set('gpupost.min_device_values', '9223372036854775807'), gpu_info()['ini']['gpupost.min_device_values'] === PHP_INT_MAX);
var_dump(ini_set('gpupost.max_result_bytes', '2g'), gpu_info()['ini']['gpupost.max_result_bytes']);
var_dump(ini_set('gpupost.max_result_bytes', '4096k'), gpu_info()['ini']['gpupost.max_result_bytes']);
var_dump(ini_set('gpupost.max_cached_bytes', '0'));
var_dump(ini_set('gpupost.device', 'host'));                   /* SYSTEM: not at run time */
var_dump(ini_get('gpupost.device') === $device);
?>
--EXPECTF--
int(1000)
bool(true)
int(536870912)
int(0)
bool(false)
int(0)

Warning: ini_set(): gpupost.min_device_values must be a decimal integer from 0 to 9223372036854775807, "-0x10" given; the value in force stays in %s on line %d
string(4) "1000"
int(0)
string(1) "0"
bool(true)
string(4) "512M"
int(2147483648)
string(2) "2g"
int(4194304)
string(1) "0"
bool(false)
bool(true)
