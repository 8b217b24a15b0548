import { getMessages } from '@kubejourney/content';
import { describe, expect, it } from 'vitest';
import { findChapterStop, stopKicker } from './chapter-stop.util';

describe('findChapterStop', () => {
  it('should number kube-scheduler as station 5 when it is the sixth stop of the line', () => {
    const found = findChapterStop('kube-scheduler');
    expect(found).toMatchObject({ index: 5, stationNumber: 5 });
    expect(found?.previous?.slug).toBe('controller-manager');
    expect(found?.next?.slug).toBe('kubelet');
  });

  it('should give the hall no station number and no previous stop when the slug is prologue', () => {
    const found = findChapterStop('prologue');
    expect(found?.stationNumber).toBeUndefined();
    expect(found?.previous).toBeUndefined();
    expect(found?.next?.slug).toBe('kubectl');
  });

  it('should give the terminus no next stop when the slug is recap', () => {
    expect(findChapterStop('recap')?.next).toBeUndefined();
  });

  it('should find nothing when the slug is not on the line', () => {
    expect(findChapterStop('kube-dns')).toBeUndefined();
  });
});

describe('stopKicker', () => {
  it.each([
    ['Stop 5', 'kube-scheduler', 'en'],
    ['Departure hall', 'prologue', 'en'],
    ['Terminus', 'recap', 'en'],
  ] as const)(
    'should say "%s" when the stop is %s and the locale is %s',
    (expected, slug, locale) => {
      const found = findChapterStop(slug);
      expect(found && stopKicker(found, getMessages(locale).learn)).toBe(expected);
    },
  );

  it('should label a station in Chinese when the locale is zh-TW', () => {
    const found = findChapterStop('etcd');
    const zh = getMessages('zh-TW').learn;
    expect(found && stopKicker(found, zh)).toBe(zh.stopNumber.replace('{number}', '3'));
  });
});
