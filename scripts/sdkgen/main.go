// sdkgen writes a Pulumi SDK for one language from a package schema, offline, with the code
// generators of github.com/pulumi/pulumi/pkg/v3 (the CLI's `pulumi package gen-sdk` needs a
// language host per language, which cannot be built here for Go and Python).
//
//	sdkgen <schema.json> <go|python> <out-dir>
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/blang/semver"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "sdkgen: "+format+"\n", args...)
	os.Exit(1)
}

// offline answers every request for another package with an error: the schema refers to none.
type offline struct{}

func (offline) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s is not available offline", pkg)
}

func (offline) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, fmt.Errorf("package %s is not available offline", d.Name)
}

func (offline) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s is not available offline", pkg)
}

func (offline) LoadPackageReferenceV2(_ context.Context, d *schema.PackageDescriptor) (schema.PackageReference, error) {
	return nil, fmt.Errorf("package %s is not available offline", d.Name)
}

func main() {
	if len(os.Args) != 4 {
		fail("usage: sdkgen <schema.json> <go|python> <out-dir>")
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("cannot read the schema: %v", err)
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		fail("the schema is not valid JSON: %v", err)
	}
	pkg, diags, err := schema.BindSpec(spec, offline{}, schema.ValidationOptions{})
	if err != nil {
		fail("cannot bind the schema: %v", err)
	}
	if diags.HasErrors() {
		fail("the schema has errors: %v", diags)
	}
	var files map[string][]byte
	switch os.Args[2] {
	case "go":
		files, err = gogen.GeneratePackage("neoncompute-sdkgen", pkg, nil)
	case "python":
		files, err = pygen.GeneratePackage("neoncompute-sdkgen", pkg, nil, offline{})
	default:
		fail("unknown language %q (go or python)", os.Args[2])
	}
	if err != nil {
		fail("cannot generate the %s SDK: %v", os.Args[2], err)
	}
	for name, content := range files {
		path := filepath.Join(os.Args[3], name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			fail("%v", err)
		}
		if err := os.WriteFile(path, content, 0o644); err != nil {
			fail("%v", err)
		}
	}
}
