// The multicast DNS group and port (RFC 6762 §3).
export const MDNS_GROUP = '224.0.0.251';
export const MDNS_PORT = 5353;
