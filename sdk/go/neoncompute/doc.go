// Neon compute endpoints and API keys through the control API v2, with lookups. A provider plugin over the same implementation as the @neon-labs-unofficial/pulumi-neon-compute dynamic provider.
package neoncompute
