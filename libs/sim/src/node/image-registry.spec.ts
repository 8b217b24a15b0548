import { describe, expect, it } from 'vitest';
import { invalidImageReason, lookupImage, normalizeImage, pullDurationMs } from './image-registry';

describe('normalizeImage', () => {
  it.each([
    ['nginx', 'docker.io/library/nginx:latest'],
    ['nginx:1.27', 'docker.io/library/nginx:1.27'],
    ['bitnami/redis:7', 'docker.io/bitnami/redis:7'],
    ['registry.k8s.io/pause:3.10', 'registry.k8s.io/pause:3.10'],
    ['localhost:5000/app:v1', 'localhost:5000/app:v1'],
    ['ghcr.io/kubejourney/crashloop', 'ghcr.io/kubejourney/crashloop:latest'],
  ])('should normalise %s to %s', (ref, full) => {
    expect(normalizeImage(ref).normalized).toBe(full);
  });
});

describe('lookupImage', () => {
  it('should find a catalog image with its size when the tag exists', () => {
    const r = lookupImage('nginx:1.27');
    expect(r.ok && r.image.sizeBytes).toBe(72_195_292);
    expect(r.ok && r.image.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('should fail with containerd NotFound when the tag does not exist', () => {
    expect(lookupImage('nginx:doesnotexist')).toEqual({
      ok: false,
      error:
        'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:doesnotexist": failed to resolve reference "docker.io/library/nginx:doesnotexist": docker.io/library/nginx:doesnotexist: not found',
    });
  });

  it('should fail with pull access denied when the repository does not exist (typo)', () => {
    const r = lookupImage('ngnix:1.27');
    expect(!r.ok && r.error).toContain(
      'pull access denied, repository does not exist or may require authorization',
    );
  });

  it('should accept any exercise image under kubejourney/ with a known tag', () => {
    expect(lookupImage('kubejourney/crashloop:1.0').ok).toBe(true);
    expect(lookupImage('kubejourney/crashloop:9.9').ok).toBe(false);
  });

  it('should reject upper-case repository names before pulling', () => {
    expect(invalidImageReason('Nginx:1.27')).toContain('invalid reference format');
    expect(invalidImageReason('nginx:1.27')).toBeNull();
  });

  it('should take longer to pull a bigger image', () => {
    expect(pullDurationMs(72_195_292, 0)).toBeGreaterThan(pullDurationMs(2_166_802, 0));
    expect(pullDurationMs(72_195_292, 0)).toBeGreaterThanOrEqual(2_000);
    expect(pullDurationMs(72_195_292, 1)).toBeLessThanOrEqual(8_000);
  });
});
