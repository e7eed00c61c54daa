import { AddressPolicy, allowListProblems, classifyAddress } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    // 127.0.0.1 in the forms the system resolver (inet_aton) and the URL parser accept
    ['127.0.0.1', 'loopback'],
    ['2130706433', 'loopback'], // one decimal number
    ['0x7f000001', 'loopback'], // one hexadecimal number
    ['017700000001', 'loopback'], // one octal number
    ['0177.0.0.1', 'loopback'], // octal parts
    ['0x7f.0x0.0x0.0x1', 'loopback'], // hexadecimal parts
    ['0x7f.1', 'loopback'], // short form a.b (b holds 24 bits)
    ['127.1', 'loopback'],
    ['127.0.1', 'loopback'], // short form a.b.c (c holds 16 bits)
    ['0177.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['0', 'unspecified'],
    ['0x0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['012.1.2.3', 'private'], // 012 is octal 10
    ['167772161', 'private'], // 10.0.0.1
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['0xc0a80101', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'link_local'],
    ['0xa9fea9fe', 'link_local'],
    ['2852039166', 'link_local'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['8.8.8.8', 'public'],
    ['134744072', 'public'], // 8.8.8.8 as one number
    ['172.32.0.1', 'public'],
    ['100.128.0.1', 'public'],
  ])('IPv4 %s is %s', (text, kind) => {
    expect(classifyAddress(text)).toBe(kind);
  });

  it.each([
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['0000:0000:0000:0000:0000:0000:0000:0001', 'loopback'],
    ['::', 'unspecified'],
    ['[::]', 'unspecified'],
    ['::ffff:127.0.0.1', 'loopback'], // IPv4-mapped, dotted
    ['::ffff:7f00:1', 'loopback'], // IPv4-mapped, hexadecimal
    ['[::ffff:7f00:1]', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'], // IPv4-translated
    ['::127.0.0.1', 'loopback'], // IPv4-compatible
    ['::7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'link_local'],
    ['::ffff:0.0.0.0', 'unspecified'],
    ['64:ff9b::a9fe:a9fe', 'link_local'], // NAT64 of 169.254.169.254
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b:1::a00:1', 'private'],
    ['2002:7f00:1::1', 'loopback'], // 6to4 of 127.0.0.1
    ['2002:c0a8:0101::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['febf::1', 'link_local'],
    ['fc00::1', 'unique_local'],
    ['fd12:3456::1', 'unique_local'],
    ['fec0::1', 'private'], // site-local (deprecated)
    ['ff02::1', 'multicast'],
    ['ff05::2', 'multicast'],
    ['2001:db8::1', 'reserved'], // documentation
    ['2001:0:4136:e378::1', 'reserved'], // Teredo
    ['100::1', 'reserved'], // discard-only
    ['5f00::1', 'reserved'],
    ['::808:808', 'public'], // IPv4-compatible 8.8.8.8
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['[2a00:1450:4001:80b::200e]', 'public'],
  ])('IPv6 %s is %s', (text, kind) => {
    expect(classifyAddress(text)).toBe(kind);
  });

  it.each([
    'localhost',
    'example.com',
    '256.1.1.1',
    '08.0.0.1',
    '1.2.3.4.5',
    '0x100000000',
    '1:2:3:4:5:6:7:8:9',
    ':::1',
    '12345::1',
    '',
    '[]',
    '[127.0.0.1]',
  ])('refuses to classify %j', (text) => {
    expect(classifyAddress(text)).toBe('invalid');
  });
});

describe('AddressPolicy', () => {
  it('allows public addresses and nothing else by default', () => {
    const policy = AddressPolicy.publicOnly();
    expect(policy.check('93.184.216.34')).toEqual({ allowed: true });
    expect(policy.check('2606:4700:4700::1111')).toEqual({ allowed: true });
    expect(policy.check('127.0.0.1')).toEqual({ allowed: false, addressClass: 'loopback' });
    expect(policy.check('::ffff:10.1.1.1')).toEqual({ allowed: false, addressClass: 'private' });
    expect(policy.check('fd00::5')).toEqual({ allowed: false, addressClass: 'unique_local' });
    expect(policy.check('not an address')).toEqual({ allowed: false, addressClass: 'invalid' });
  });

  it('allows what the list names, as addresses or CIDR ranges, and only that', () => {
    const policy = AddressPolicy.allowing('127.0.0.1, 10.20.0.0/16 fd00::/8');
    expect(policy.check('127.0.0.1')).toEqual({ allowed: true });
    expect(policy.check('2130706433')).toEqual({ allowed: true });
    expect(policy.check('::ffff:127.0.0.1')).toEqual({ allowed: true }); // the same IPv4 address, mapped
    expect(policy.check('127.0.0.2')).toEqual({ allowed: false, addressClass: 'loopback' });
    expect(policy.check('::1')).toEqual({ allowed: false, addressClass: 'loopback' });
    expect(policy.check('10.20.255.1')).toEqual({ allowed: true });
    expect(policy.check('10.21.0.1')).toEqual({ allowed: false, addressClass: 'private' });
    expect(policy.check('fd12::1')).toEqual({ allowed: true });
    expect(policy.check('fc00::1')).toEqual({ allowed: false, addressClass: 'unique_local' });
    expect(policy.entries).toEqual(['127.0.0.1', '10.20.0.0/16', 'fd00::/8']);
  });

  it('takes an empty list as public only', () => {
    expect(AddressPolicy.allowing('').check('127.0.0.1')).toEqual({ allowed: false, addressClass: 'loopback' });
    expect(AddressPolicy.allowing(' , ').entries).toEqual([]);
  });

  it('refuses list entries that are not written-out addresses or ranges, naming each', () => {
    expect(allowListProblems(['localhost', '127.1', '10.0.0.0/33', '::1', '192.168.0.0/16'])).toEqual([
      '"localhost" is neither an IP address nor a CIDR range',
      '"127.1" is neither an IP address nor a CIDR range',
      '"10.0.0.0/33" is neither an IP address nor a CIDR range',
    ]);
    expect(() => AddressPolicy.allowing('localhost')).toThrow(new TypeError('"localhost" is neither an IP address nor a CIDR range'));
  });
});
