import { test } from '@japa/runner'
import { isPublicAddress } from '#core/outbound/public_address'

/** [range, last address before it, first address in it, last address in it, first address after it] */
const IPV4_EDGES: Array<[string, string | null, string, string, string | null]> = [
  ['0.0.0.0/8', null, '0.0.0.0', '0.255.255.255', '1.0.0.0'],
  ['10.0.0.0/8', '9.255.255.255', '10.0.0.0', '10.255.255.255', '11.0.0.0'],
  ['100.64.0.0/10', '100.63.255.255', '100.64.0.0', '100.127.255.255', '100.128.0.0'],
  ['127.0.0.0/8', '126.255.255.255', '127.0.0.0', '127.255.255.255', '128.0.0.0'],
  ['169.254.0.0/16', '169.253.255.255', '169.254.0.0', '169.254.255.255', '169.255.0.0'],
  ['172.16.0.0/12', '172.15.255.255', '172.16.0.0', '172.31.255.255', '172.32.0.0'],
  ['192.0.0.0/24', '191.255.255.255', '192.0.0.0', '192.0.0.255', '192.0.1.0'],
  ['192.0.2.0/24', '192.0.1.255', '192.0.2.0', '192.0.2.255', '192.0.3.0'],
  ['192.88.99.0/24', '192.88.98.255', '192.88.99.0', '192.88.99.255', '192.88.100.0'],
  ['192.168.0.0/16', '192.167.255.255', '192.168.0.0', '192.168.255.255', '192.169.0.0'],
  ['198.18.0.0/15', '198.17.255.255', '198.18.0.0', '198.19.255.255', '198.20.0.0'],
  ['198.51.100.0/24', '198.51.99.255', '198.51.100.0', '198.51.100.255', '198.51.101.0'],
  ['203.0.113.0/24', '203.0.112.255', '203.0.113.0', '203.0.113.255', '203.0.114.0'],
  ['224.0.0.0/4 multicast', '223.255.255.255', '224.0.0.0', '239.255.255.255', null],
  ['240.0.0.0/4 reserved + broadcast', null, '240.0.0.0', '255.255.255.255', null],
]

const IPV6_EDGES: Array<[string, string | null, string, string, string | null]> = [
  [
    '2001::/23 IETF (Teredo, AMT… decoded or listed apart)',
    '2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:2::',
    '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:200::',
  ],
  [
    '2001:db8::/32 documentation',
    '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db8::',
    '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff',
    '2001:db9::',
  ],
  [
    '3fff::/20 documentation',
    '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '3fff::',
    '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff',
    '3fff:1000::',
  ],
  [
    'outside 2000::/3 (below)',
    null,
    '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '2000::',
  ],
  [
    'outside 2000::/3 (above: 3fff::/20 end, 5f00::/16, fc00::/7, fe80::/10, ff00::/8)',
    '3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    '4000::',
    'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
    null,
  ],
]

const edges = (rows: typeof IPV4_EDGES) =>
  rows.map(([range, before, first, last, after]) => ({ range, before, first, last, after }))

test.group('isPublicAddress: IPv4 special-purpose ranges', () => {
  test('{range}: just outside is public, both ends inside are not')
    .with(edges(IPV4_EDGES))
    .run(({ assert }, { range, before, first, last, after }) => {
      if (before) assert.isTrue(isPublicAddress(before), `${before} (before ${range})`)
      assert.isFalse(isPublicAddress(first), `${first} (first of ${range})`)
      assert.isFalse(isPublicAddress(last), `${last} (last of ${range})`)
      if (after) assert.isTrue(isPublicAddress(after), `${after} (after ${range})`)
    })

  test('ordinary public addresses pass; garbage does not', ({ assert }) => {
    for (const address of ['8.8.8.8', '93.184.216.34', '1.1.1.1', '223.255.255.255'])
      assert.isTrue(isPublicAddress(address), address)
    for (const address of ['', 'localhost', '256.0.0.1', '1.2.3.4.5', 'example.com'])
      assert.isFalse(isPublicAddress(address), address)
  })
})

test.group('isPublicAddress: IPv6 special-purpose ranges', () => {
  test('{range}: just outside is public, both ends inside are not')
    .with(edges(IPV6_EDGES))
    .run(({ assert }, { range, before, first, last, after }) => {
      if (before) assert.isTrue(isPublicAddress(before), `${before} (before ${range})`)
      assert.isFalse(isPublicAddress(first), `${first} (first of ${range})`)
      assert.isFalse(isPublicAddress(last), `${last} (last of ${range})`)
      if (after) assert.isTrue(isPublicAddress(after), `${after} (after ${range})`)
    })

  test('the registry ranges outside 2000::/3 are refused', ({ assert }) => {
    for (const address of [
      '::',
      '::1', // unspecified, loopback
      '100::',
      '100::ffff:ffff:ffff:ffff', // discard-only
      '64:ff9b:1::',
      '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', // local-use NAT64
      '5f00::',
      '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', // SRv6 SIDs
      'fc00::',
      'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', // unique local
      'fe80::',
      'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
      'fe80::1%eth0', // link local
      'ff00::',
      'ff02::1', // multicast
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
  })

  test('the globally reachable entries of 2001::/23 pass, their neighbours do not', ({
    assert,
  }) => {
    for (const address of [
      '2001:1::1',
      '2001:1::3',
      '2001:3::',
      '2001:3:ffff::1',
      '2001:4:112::1',
      '2001:20::1',
      '2001:3f:ffff::1',
    ]) {
      assert.isTrue(isPublicAddress(address), address)
    }
    for (const address of [
      '2001:1::',
      '2001:1::4',
      '2001:2::1',
      '2001:4:111::1',
      '2001:4:113::1',
      '2001:10::1',
      '2001:40::1',
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
  })

  test('ordinary global unicast passes', ({ assert }) => {
    for (const address of ['2606:4700::1111', '2a00:1450:4001:80b::200e', '2001:200::1'])
      assert.isTrue(isPublicAddress(address), address)
  })
})

test.group('isPublicAddress: IPv4 embedded in IPv6', () => {
  test('IPv4-mapped ::ffff:0:0/96 follows the IPv4 it carries', ({ assert }) => {
    assert.isTrue(isPublicAddress('::ffff:8.8.8.8'))
    assert.isTrue(isPublicAddress('::ffff:9.255.255.255'))
    for (const address of [
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.0',
      '::ffff:169.254.169.254',
      '::ffff:0:0',
      '::ffff:ffff:ffff',
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
  })

  test('IPv4-compatible ::/96 (deprecated) is refused, [::7f00:1] among them', ({ assert }) => {
    for (const address of [
      '::7f00:1',
      '::127.0.0.1',
      '::a00:1',
      '::808:808',
      '::ffff',
      '::1:0:0',
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
  })

  test('NAT64 64:ff9b::/96 follows the IPv4 it carries; the local-use 64:ff9b:1::/48 is refused', ({
    assert,
  }) => {
    assert.isTrue(isPublicAddress('64:ff9b::8.8.8.8'))
    assert.isTrue(isPublicAddress('64:ff9b::93.184.216.34'))
    for (const address of [
      '64:ff9b::127.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '64:ff9b::10.0.0.1',
      '64:ff9b:1::808:808',
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
    // Just outside the /96: not a NAT64 address, and outside 2000::/3.
    assert.isFalse(isPublicAddress('64:ff9b:0:0:0:1:808:808'))
  })

  test('6to4 2002::/16 follows the IPv4 in bits 16..47', ({ assert }) => {
    assert.isTrue(isPublicAddress('2002:808:808::1'))
    assert.isTrue(isPublicAddress('2002:5db8:d822::1')) // 93.184.216.34
    for (const address of [
      '2002:7f00:1::1',
      '2002:a00:1::1',
      '2002:a9fe:a9fe::',
      '2002:c0a8:101::1',
      '2002::1',
    ]) {
      assert.isFalse(isPublicAddress(address), address)
    }
    // Neighbours of 2002::/16 are ordinary global unicast.
    assert.isTrue(isPublicAddress('2003:7f00:1::1'))
    assert.isTrue(isPublicAddress('2001:ffff:7f00:1::1'))
  })

  test('Teredo 2001::/32: server IPv4 in bits 32..63, client IPv4 inverted in the last 32 bits', ({
    assert,
  }) => {
    // Server 8.8.8.8, client 93.184.216.34 (inverted: a247:27dd).
    assert.isTrue(isPublicAddress('2001:0:808:808::a247:27dd'))
    // Server 127.0.0.1.
    assert.isFalse(isPublicAddress('2001:0:7f00:1::a247:27dd'))
    // Client 127.0.0.1 (inverted: 80ff:fffe).
    assert.isFalse(isPublicAddress('2001:0:808:808::80ff:fffe'))
    // Client 169.254.169.254 (inverted: 5601:5601).
    assert.isFalse(isPublicAddress('2001:0:808:808::5601:5601'))
    // Client 10.0.0.1 written plainly (not inverted) is 245.255.255.254 after inversion: reserved.
    assert.isFalse(isPublicAddress('2001:0:808:808::a00:1'))
  })
})
