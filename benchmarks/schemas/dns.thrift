// Seed 004's DnsRecord in Thrift ("pretty much the same thing").
namespace py passive_dns

struct DnsRecord {
  1: required string key,
  2: required string value,
  3: required string first,
  4: required string last,
  5: optional string type = "A",
  6: optional i32 ttl = 86400,
}

struct DnsResponse {
  1: list<DnsRecord> records,
}
