// A Pulumi Go program over the neoncompute provider plugin's generated Go SDK (sdk/go), run end to end
// against the emulator by tests/e2e/plugin-go.e2e.test.ts.
package main

import (
	"encoding/json"
	"fmt"

	"github.com/neon-labs-unofficial/pulumi-neon-compute/sdk/go/neoncompute"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

// existing describes a compute that existed before the stack, as the program must declare it.
type existing struct {
	BranchId string  `json:"branchId"`
	Type     string  `json:"type"`
	MinCu    float64 `json:"minCu"`
	MaxCu    float64 `json:"maxCu"`
	// ImportId, when set, adopts the compute at create (the importId input) instead of `pulumi import`.
	ImportId string `json:"importId"`
}

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		projectId := cfg.Require("projectId")
		suspend := 300
		if v, err := cfg.TryInt("suspendTimeoutSeconds"); err == nil {
			suspend = v
		}

		replica, err := neoncompute.NewCompute(ctx, "replica", &neoncompute.ComputeArgs{
			ProjectId:             pulumi.String(projectId),
			BranchId:              pulumi.String(cfg.Require("branchId")),
			Type:                  pulumi.String("read_only"),
			Cu:                    pulumi.Float64(0.25),
			SuspendTimeoutSeconds: pulumi.Int(suspend),
		})
		if err != nil {
			return err
		}
		ctx.Export("endpointId", replica.EndpointId)
		ctx.Export("host", replica.Host)
		ctx.Export("suspendTimeoutSeconds", replica.SuspendTimeoutSeconds)

		// Computes that existed before the stack: "legacy" once `pulumi import` has adopted it,
		// "adopted" through the importId input.
		for _, name := range []string{"legacy", "adopted"} {
			raw := cfg.Get(name)
			if raw == "" {
				continue
			}
			var e existing
			if err := json.Unmarshal([]byte(raw), &e); err != nil {
				return fmt.Errorf("config %s: %w", name, err)
			}
			args := &neoncompute.ComputeArgs{
				ProjectId: pulumi.String(projectId),
				BranchId:  pulumi.String(e.BranchId),
				Type:      pulumi.String(e.Type),
				MinCu:     pulumi.Float64(e.MinCu),
				MaxCu:     pulumi.Float64(e.MaxCu),
			}
			if e.ImportId != "" {
				args.ImportId = pulumi.String(e.ImportId)
			}
			c, err := neoncompute.NewCompute(ctx, name, args)
			if err != nil {
				return err
			}
			ctx.Export(name+"EndpointId", c.EndpointId)
		}
		return nil
	})
}
