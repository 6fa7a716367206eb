/**
 * Lambda layers assembled from the project's own `node_modules`, for the packages that must stay
 * out of the esbuild bundles: `sharp` (a native libvips binding), `@sparticuz/chromium` (its
 * `bin/*.tar.br` and `chromium.br` are unpacked to /tmp at cold start) and `puppeteer-core`
 * (docs/infra.md "What the stack creates", "an explicit
 * list of binary packages kept out of the bundle").
 *
 * Why not `bundling.nodeModules`: it runs `npm install` inside the asset at synth time, which needs
 * the registry; synth must work offline (docs/infra.md "Decision: Lambda layers from
 * `node_modules`"). Copying what `npm install` already put on this machine is offline, fast and
 * gives exactly the versions the tests ran.
 *
 * The copy happens in a *local bundling* step, so it runs only when the stack is bundled
 * (`cdk synth`/`deploy`) and is skipped with the rest of bundling in the assertion tests
 * (context `aws:cdk:bundling-stacks: []`).
 */
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { AssetHashType, DockerImage } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** Node's `process.arch` names for the two Lambda architectures. */
export type CpuArch = 'x64' | 'arm64';

/** The Lambda architecture for a CPU name. */
export const lambdaArchitecture = (arch: CpuArch): lambda.Architecture =>
  arch === 'arm64' ? lambda.Architecture.ARM_64 : lambda.Architecture.X86_64;

interface PackageJson {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

const readPackageJson = (dir: string): PackageJson =>
  JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;

/**
 * Finds a package as Node would from `fromDir`: `fromDir/node_modules/<name>`, then each parent's.
 * @returns the package directory, or `undefined` when it is not installed.
 */
function resolvePackageDir(name: string, fromDir: string, projectRoot: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === projectRoot || dirname(dir) === dir) return undefined;
    dir = dirname(dir);
  }
}

/**
 * Whether a package's `os`/`cpu`/`libc` fields allow Lambda: Linux, glibc (Amazon Linux 2023),
 * the target CPU. Used to keep e.g. `@img/sharp-darwin-arm64` out of an x64 layer.
 */
function runsOnLambda(pkg: PackageJson, arch: CpuArch): boolean {
  const allows = (list: string[] | undefined, value: string): boolean => {
    if (list === undefined || list.length === 0) return true;
    if (list.includes(`!${value}`)) return false;
    const allowed = list.filter((x) => !x.startsWith('!'));
    return allowed.length === 0 || allowed.includes(value);
  };
  return allows(pkg.os, 'linux') && allows(pkg.cpu, arch) && allows(pkg.libc, 'glibc');
}

/**
 * The production dependency closure of `packages` as installed under `projectRoot`: package
 * directories (absolute), `dependencies` plus the installed `optionalDependencies` that run on
 * Lambda for `arch`.
 * @throws Error when a requested package or a required dependency is not installed.
 */
export function dependencyClosure(
  projectRoot: string,
  packages: readonly string[],
  arch: CpuArch,
): string[] {
  projectRoot = resolve(projectRoot);
  const seen = new Set<string>();
  const visit = (name: string, fromDir: string, optional: boolean): void => {
    const dir = resolvePackageDir(name, fromDir, projectRoot);
    if (dir === undefined) {
      if (optional) return;
      throw new Error(
        `Cannot build the Lambda layer: package "${name}" is not installed (needed from ${relative(projectRoot, fromDir) || '.'}). Run npm install.`,
      );
    }
    if (seen.has(dir)) return;
    const pkg = readPackageJson(dir);
    if (!runsOnLambda(pkg, arch)) return;
    seen.add(dir);
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, dir, false);
    for (const dep of Object.keys(pkg.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const name of packages) visit(name, projectRoot, false);
  return [...seen].sort();
}

/**
 * The Linux (glibc) CPUs for which sharp's prebuilt binary *and* libvips are installed locally
 * (`@img/sharp-linux-<cpu>` and `@img/sharp-libvips-linux-<cpu>`). npm installs only the host's
 * by default (docs/infra.md "Architectures" tells how to add the other).
 */
export function installedSharpArchitectures(projectRoot: string): CpuArch[] {
  return (['arm64', 'x64'] as const).filter((cpu) =>
    ['sharp', 'sharp-libvips'].every((p) =>
      existsSync(join(projectRoot, 'node_modules', '@img', `${p}-linux-${cpu}`, 'package.json')),
    ),
  );
}

/** Files a Lambda never reads; left out to keep the layer small (bytes count against 250 MB). */
const SKIPPED_FILE = /(\.d\.[cm]?ts|\.map|\.tsbuildinfo)$/;

/**
 * Copies the closure of `packages` into `<outputDir>/nodejs/node_modules/…`, the path Lambda
 * adds to Node's module resolution for CommonJS and ES modules. Nested `node_modules` keep
 * their place so that differing versions still resolve as they do locally.
 */
export function copyLayerContent(
  projectRoot: string,
  packages: readonly string[],
  arch: CpuArch,
  outputDir: string,
): void {
  projectRoot = resolve(projectRoot);
  for (const dir of dependencyClosure(projectRoot, packages, arch)) {
    const target = join(outputDir, 'nodejs', relative(projectRoot, dir));
    const nested = join(dir, 'node_modules');
    mkdirSync(dirname(target), { recursive: true });
    cpSync(dir, target, {
      recursive: true,
      dereference: true,
      // Nested node_modules are copied only for the packages of the closure (their own turn).
      filter: (src) => src !== nested && !src.startsWith(nested + sep) && !SKIPPED_FILE.test(src),
    });
  }
}

export interface NodeModulesLayerProps {
  /** The repository root holding `package-lock.json` and `node_modules`. */
  projectRoot: string;
  /** Top-level packages to ship; their production dependencies come along. */
  packages: readonly string[];
  /** The CPU the binaries are for; must match the functions that use the layer. */
  arch: CpuArch;
  /** Why the layer exists, for the console. */
  description: string;
}

/**
 * A Lambda layer holding `packages` from the local `node_modules` (no npm install, no Docker).
 * Runtime: Node.js 24; architecture: `arch` (docs/infra.md "Decision: Lambda layers from
 * `node_modules`").
 */
export class NodeModulesLayer extends Construct {
  readonly layer: lambda.LayerVersion;

  constructor(scope: Construct, id: string, props: NodeModulesLayerProps) {
    super(scope, id);
    const { projectRoot, packages, arch } = props;
    this.layer = new lambda.LayerVersion(this, 'Layer', {
      description: props.description,
      compatibleRuntimes: [lambda.Runtime.NODEJS_24_X],
      compatibleArchitectures: [lambdaArchitecture(arch)],
      code: lambda.Code.fromAsset(projectRoot, {
        // The hash is taken from the copied output, so a changed package version redeploys.
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // CDK caches staged assets by source path and serialisable bundling options; the local
          // bundler is a function, so the packages and CPU go in here or two layers of this
          // class would share one asset.
          environment: { LAYER_PACKAGES: packages.join(','), LAYER_ARCH: arch },
          // Never pulled: local bundling always succeeds or throws. CDK requires an image.
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
          command: ['false'],
          local: {
            tryBundle(outputDir: string): boolean {
              copyLayerContent(projectRoot, packages, arch, outputDir);
              return true;
            },
          },
        },
      }),
    });
  }
}
