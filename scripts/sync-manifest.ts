// `npm run sync-manifest`: writes the lists package.json keeps of the registry's agent CLIs and dialects (the
// settings' enums and their descriptions) from the registries themselves. test/unit/profiles/registry.test.ts fails
// while package.json disagrees with them.
import * as fs from "node:fs";
import * as path from "node:path";
import { AUTO_DIALECT_SUMMARY, DIALECTS, DIALECT_NAMES } from "../src/dialects/registry";
import { AUTO_PROFILE_SUMMARY, PROFILES, PROFILE_SETTING_VALUES } from "../src/profiles/profile-registry";

interface EnumSetting {
  enum: readonly string[];
  enumDescriptions: readonly string[];
}

/** What package.json must say of each registry-backed setting. */
export function manifestEnums(): Record<string, EnumSetting> {
  return {
    "agentStream.cli.profile": { enum: PROFILE_SETTING_VALUES, enumDescriptions: [AUTO_PROFILE_SUMMARY, ...PROFILES.map((p) => p.summary)] },
    "agentStream.dialect": { enum: DIALECT_NAMES, enumDescriptions: [AUTO_DIALECT_SUMMARY, ...DIALECTS.map((d) => d.summary)] },
  };
}

function sync(manifestPath: string): boolean {
  const text = fs.readFileSync(manifestPath, "utf8");
  const manifest = JSON.parse(text) as { contributes: { configuration: { properties: Record<string, Record<string, unknown>> } } };
  const properties = manifest.contributes.configuration.properties;
  for (const [key, { enum: values, enumDescriptions }] of Object.entries(manifestEnums())) {
    const setting = properties[key];
    if (setting === undefined) throw new Error(`package.json has no setting ${key}`);
    setting.enum = [...values];
    setting.enumDescriptions = [...enumDescriptions];
  }
  const updated = JSON.stringify(manifest, null, 2) + "\n";
  if (updated === text) return false;
  fs.writeFileSync(manifestPath, updated);
  return true;
}

if (require.main === module) {
  const manifestPath = path.resolve(__dirname, "../../package.json");
  console.log(sync(manifestPath) ? `updated ${manifestPath}` : "package.json already agrees with the registry");
}
